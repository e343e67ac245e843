/**
 * When usage resets (all times UTC):
 *   - `periodic_reset: "weekly"`  every Monday 00:00;
 *   - `periodic_reset: "monthly"` the 1st of each month, 00:00;
 *   - `periodic_reset_days: N`    every N days from `next_usage_reset_at` (normalised to 00:00 UTC
 *     of its day; default: today's midnight + N days), the usage before it being the first period;
 *   - neither: never (the limit is cumulative).
 * Periods are computed from the clock alone, so every instance agrees without a reset job: usage
 * is counted per period, and a new period starts from zero.
 */
export type PeriodicReset = 'weekly' | 'monthly';

export interface Schedule {
  periodic_reset: PeriodicReset | null;
  periodic_reset_days: number | null;
  /** Epoch ms of the first reset of a days schedule (UTC midnight). */
  reset_anchor: number | null;
}

export interface Period {
  /** Counter name of the period (stable for its whole length). */
  key: string;
  /** Start of the period when a reset opened it; null for the first period or a cumulative limit. */
  start: number | null;
  /** The next reset; null when the limit never resets. */
  end: number | null;
}

export const DAY_MS = 24 * 60 * 60_000;
const WEEK_MS = 7 * DAY_MS;
/** Monday 1970-01-05 00:00 UTC is 4 days after the epoch. */
const MONDAY_OFFSET = 4 * DAY_MS;

export function utcMidnight(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/** The first reset of a new days schedule: today's UTC midnight + N days. */
export function defaultAnchor(days: number, at: number): number {
  return utcMidnight(at) + days * DAY_MS;
}

export function periodAt(s: Schedule, at: number): Period {
  if (s.periodic_reset === 'weekly') {
    const start = Math.floor((at - MONDAY_OFFSET) / WEEK_MS) * WEEK_MS + MONDAY_OFFSET;
    return { key: String(start), start, end: start + WEEK_MS };
  }
  if (s.periodic_reset === 'monthly') {
    const d = new Date(at);
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    return { key: String(start), start, end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
  }
  if (s.periodic_reset_days !== null && s.reset_anchor !== null) {
    const anchor = s.reset_anchor;
    if (at < anchor) return { key: `a${anchor}`, start: null, end: anchor };
    const length = s.periodic_reset_days * DAY_MS;
    const start = anchor + Math.floor((at - anchor) / length) * length;
    return { key: String(start), start, end: start + length };
  }
  return { key: 'all', start: null, end: null };
}
