/** How long to wait before the next try: the provider's own hint, or exponential back-off with full jitter. */

/**
 * Full jitter (AWS architecture blog, "Exponential Backoff And Jitter"): a uniform draw in
 * [0, min(cap, base * 2^retry)), so that clients failing together do not retry together.
 * `retry` is 0 before the first retry.
 */
export function backoffDelayMs(retry: number, baseMs: number, capMs: number, random: () => number): number {
  // The exponent is bounded so that 0 * 2^n never becomes NaN (0 * Infinity).
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.min(retry, 30)));
}

const DECIMAL = /^\s*\d+(?:\.\d+)?\s*$/;
const HAS_LETTER = /[a-z]/i;

/**
 * The wait a provider asked for, in milliseconds: `retry-after-ms` (milliseconds, as OpenAI sends it)
 * first, then `retry-after` (delay-seconds, or an HTTP date). Undefined when absent or unreadable;
 * a date in the past means "now" (0).
 */
export function retryAfterMs(headers: Readonly<Record<string, string>> | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && DECIMAL.test(ms)) return Math.ceil(Number(ms));
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  if (DECIMAL.test(after)) return Math.ceil(Number(after) * 1000);
  // An HTTP date names its weekday and month; Date.parse alone would read "-5" as a year.
  if (!HAS_LETTER.test(after)) return undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
