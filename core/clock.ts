/**
 * Wall-clock time for plugins that keep time-based state (limits, breakers, policy records). Read
 * through the global `Date` at each call (never captured), so tests can move time with
 * `sinon.useFakeTimers({ toFake: ['Date'] })` while real sockets and timers keep working.
 */
export function wallNow(): number {
  return Date.now();
}

/** Time as a plugin with injectable time sees it (key expiry, batch windows); tests pass a clock they move by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
