/**
 * A node's `cb_config` turned into what the breaker asks per outcome: does it count as a failure,
 * a success, or neither. Compiled once per `cb_config` object (a cached config is reused across requests).
 */
import { attemptAbort, type Attempt, type ConfigNode, type Outcome } from '../../../core/index.js';

export type CbConfig = NonNullable<ConfigNode['cb_config']>;

export interface BreakerPolicy {
  /** Failures in a row after which the circuit opens. */
  readonly threshold: number;
  /** Milliseconds an open circuit skips its target before one probe is let through. */
  readonly cooldownMs: number;
  /** Whether a status counts as a failure: `failure_status_codes`, default every status above 500. */
  readonly countsStatus: (status: number) => boolean;
}

export type Verdict = 'success' | 'failure' | 'neither';

/** Spec §7: "statuses above 500". */
const aboveFiveHundred = (status: number) => status > 500;

export function compilePolicy(cb: CbConfig): BreakerPolicy {
  const codes = cb.failure_status_codes;
  let countsStatus = aboveFiveHundred;
  if (codes) {
    const set = new Set(codes);
    countsStatus = (status) => set.has(status);
  }
  return { threshold: cb.failure_threshold, cooldownMs: cb.cooldown_interval, countsStatus };
}

/**
 * - neither: the client went away, so the outcome says nothing about the target;
 * - failure: the status is counted, or the provider was never reached (502 without an answer:
 *   refused, reset, not its protocol), which counts whatever `failure_status_codes` says;
 * - success: anything else (the provider answered, even with a 4xx the client caused).
 */
export function judge(outcome: Outcome, attempt: Attempt, policy: BreakerPolicy): Verdict {
  if (attemptAbort(attempt).aborted) return 'neither';
  if (policy.countsStatus(outcome.status) || isNetworkFailure(outcome)) return 'failure';
  return 'success';
}

function isNetworkFailure(outcome: Outcome): boolean {
  return outcome.status === 502 && outcome.error !== undefined && outcome.response === undefined;
}
