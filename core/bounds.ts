/**
 * Upper bounds for the numbers clients send: durations, TTLs, dates and counts. Each schema of a
 * stored or timed number uses one of these, so that no value can overflow a timer, produce a
 * date `toISOString` cannot write, or lose precision once stored. Checked before any write.
 */
import { Type } from './schema.js';

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
/** 365-day years: bounds, not calendars. */
export const YEAR_SECONDS = 365 * 24 * 3600;

/** Longest TTL or expiry distance: 10 years, in seconds. */
export const MAX_TTL_SECONDS = 10 * YEAR_SECONDS;
/** Node fires a timer at once when its delay exceeds 2^31 - 1 ms (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Earliest and latest dates accepted: years 0000 to 9999, what a 4-digit ISO 8601 year can write. */
export const MIN_DATE_MS = Date.parse('0000-01-01T00:00:00.000Z');
export const MAX_DATE_MS = Date.parse('9999-12-31T23:59:59.999Z');
/** Largest count or amount a client can store: integers stay exact up to here in a double. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/** An integer from `min` to `max`; the error names both bounds and, when given, the unit. */
export function BoundedInteger(min: number, max: number, unit?: string, options: Record<string, unknown> = {}) {
  return Type.Integer({ minimum: min, maximum: max, errorMessage: `must be an integer from ${min} to ${max}${unit ? ` (${unit})` : ''}`, ...options });
}

/** A number from `min` to `max`; the error names both bounds and, when given, the unit. */
export function BoundedNumber(min: number, max: number, unit?: string, options: Record<string, unknown> = {}) {
  return Type.Number({ minimum: min, maximum: max, errorMessage: `must be a number from ${min} to ${max}${unit ? ` (${unit})` : ''}`, ...options });
}

/** Whether `ms` is a date the bounds above accept (and `Date#toISOString` can write). */
export function isDateInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_DATE_MS && ms <= MAX_DATE_MS;
}

/**
 * ISO 8601 text of `ms`, or null when it lies outside the accepted dates: rows stored before these
 * bounds existed must not make a whole list unreadable.
 */
export function isoOrNull(ms: number): string | null {
  return isDateInRange(ms) ? new Date(ms).toISOString() : null;
}
