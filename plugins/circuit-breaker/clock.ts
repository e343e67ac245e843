/**
 * The breaker's clock. Read through the global `Date` at each call (never captured), so tests can
 * move time with `sinon.useFakeTimers({ toFake: ['Date'] })` while real sockets and timers keep working.
 */
export function now(): number {
  return Date.now();
}
