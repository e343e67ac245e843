/**
 * The window algorithm: fixed windows aligned to the unit, in UTC. A minute window starts at
 * second 0, an hour window at minute 0, a day window at 00:00 UTC, a week window on Monday
 * 00:00 UTC. Every request of one window increments one counter; the next window starts at 0.
 * Fixed windows are exact under concurrency (one atomic increment decides) and cost one counter
 * per group and window; their known trade-off is that a client may spend up to twice the value
 * across a window boundary (the end of one window and the start of the next).
 */
export type Unit = 'rpm' | 'rph' | 'rpd' | 'rpw';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday: Monday 1970-01-05 00:00 UTC is 4 days after the epoch. */
const MONDAY_OFFSET = 4 * DAY;

export const UNIT_LENGTH_MS: Readonly<Record<Unit, number>> = { rpm: MINUTE, rph: HOUR, rpd: DAY, rpw: WEEK };
export const UNIT_NAME: Readonly<Record<Unit, string>> = { rpm: 'minute', rph: 'hour', rpd: 'day', rpw: 'week' };

export interface Window {
  /** First millisecond of the window (epoch ms). */
  start: number;
  /** First millisecond of the next window. */
  end: number;
}

export function windowAt(unit: Unit, at: number): Window {
  const length = UNIT_LENGTH_MS[unit];
  const offset = unit === 'rpw' ? MONDAY_OFFSET : 0;
  const start = Math.floor((at - offset) / length) * length + offset;
  return { start, end: start + length };
}

/** Whole seconds until `end` (at least 1): the value of Retry-After and x-ratelimit-reset. */
export function secondsUntil(end: number, at: number): number {
  return Math.max(1, Math.ceil((end - at) / 1000));
}
