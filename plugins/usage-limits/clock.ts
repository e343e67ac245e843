/**
 * The usage limiter's clock. Read through the global `Date` at each call (never captured), so tests can
 * move time with `sinon.useFakeTimers({ toFake: ['Date'] })` while sockets and timers stay real.
 */
export function now(): number {
  return Date.now();
}
