/** ISO 8601 date-times of request bodies, as milliseconds. */
import { Errors } from '../../../core/index.js';

/**
 * Milliseconds of an ISO 8601 date-time the schema accepted. A well-formed but impossible date
 * (February 31st) is a 400 rather than rolling over into March.
 */
export function isoToMs(value: string, path: string): number {
  const ms = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (Number.isNaN(ms) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw Errors.invalidBody(path, 'is not a valid date-time');
  }
  return ms;
}

/** An ISO 8601 date-time that must lie after `nowMs`. */
export function futureMs(value: string, nowMs: number, path: string): number {
  const ms = isoToMs(value, path);
  if (ms <= nowMs) throw Errors.invalidBody(path, 'must be in the future');
  return ms;
}
