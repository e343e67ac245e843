/** Which outcomes deserve another try. */
import type { Outcome } from '../../../core/index.js';

/** The spec names no default; these are the transient statuses every major gateway and SDK retries. */
export const DEFAULT_RETRY_STATUS_CODES: readonly number[] = Object.freeze([429, 500, 502, 503, 504]);

/**
 * A failure is retried when its status is listed, or when no provider answer came back at all
 * (refused, reset, a stream that died before its first byte: a 502 error outcome without a response),
 * whatever the list says. Successes (< 400) are never retried: a started stream cannot be replayed,
 * nor are errors marked not retryable (a policy refusal answers the same every time).
 */
export function isRetryable(outcome: Outcome, statusCodes: readonly number[]): boolean {
  if (outcome.status < 400 || outcome.error?.retryable === false) return false;
  if (statusCodes.includes(outcome.status)) return true;
  return outcome.status === 502 && outcome.error !== undefined && outcome.response === undefined;
}
