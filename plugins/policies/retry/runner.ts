/**
 * The retry loop around one target's call: try, and while the outcome is retryable and tries
 * remain, wait (provider hint or jittered back-off) and try again with a fresh copy of the attempt.
 */
import { failed, isGatewayError, releaseOutcome, type Attempt, type AttemptRunner, type ConfigNode, type Outcome } from '../../../core/index.js';
import { backoffDelayMs, retryAfterMs } from './backoff.js';
import { DEFAULT_RETRY_STATUS_CODES, isRetryable } from './retryable.js';
import { sleep } from './sleep.js';

export type RetryConfig = NonNullable<ConfigNode['retry']>;

export interface RetryTiming {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A provider asking for a longer wait than this gets no retry: its failure is returned at once. */
  readonly maxRetryAfterMs: number;
  readonly random: () => number;
}

export function withRetries(run: AttemptRunner, retry: RetryConfig, timing: RetryTiming): AttemptRunner {
  // An empty list counts as unset, as it does for fallback's on_status_codes.
  const statusCodes = retry.on_status_codes?.length ? retry.on_status_codes : DEFAULT_RETRY_STATUS_CODES;
  const useRetryAfter = retry.use_retry_after_headers === true;
  return async (attempt) => {
    const signal = attempt.signal;
    for (let n = 0; ; n++) {
      const outcome = await run(freshTry(attempt, n));
      outcome.retries = n;
      // The client went away (its own abort, whatever status it produced): stop at once.
      if (signal.aborted || n >= retry.attempts || !isRetryable(outcome, statusCodes)) return outcome;
      const wait = delayMs(outcome, n, useRetryAfter, timing);
      if (wait === undefined) return outcome;
      releaseOutcome(outcome);
      if (!(await sleep(wait, signal))) return abandoned(signal, outcome);
    }
  };
}

/**
 * Each try gets its own shallow copy (and its own headers object), so nothing one try replaces or
 * adds leaks into the next. The body is shared: plugins copy before writing (RequestContext.body),
 * and adapters re-serialise it per try.
 */
function freshTry(base: Attempt, retry: number): Attempt {
  return { ...base, headers: { ...base.headers }, retry };
}

/** Undefined when the provider asked for a longer wait than we allow. */
function delayMs(outcome: Outcome, n: number, useRetryAfter: boolean, timing: RetryTiming): number | undefined {
  if (useRetryAfter) {
    const asked = retryAfterMs(outcome.upstreamHeaders, Date.now());
    if (asked !== undefined) return asked <= timing.maxRetryAfterMs ? asked : undefined;
  }
  return backoffDelayMs(n, timing.baseDelayMs, timing.maxDelayMs, timing.random);
}

/** The client left during the back-off: report why (for logs), keeping the retries spent. */
function abandoned(signal: AbortSignal, last: Outcome): Outcome {
  const reason: unknown = signal.reason;
  if (!isGatewayError(reason)) return last;
  const outcome = failed(reason);
  outcome.retries = last.retries;
  if (last.provider !== undefined) outcome.provider = last.provider;
  return outcome;
}
