/** When a fallback node moves on from one target's outcome to the next target. */
import type { Outcome } from '../../../core/index.js';

/** A 2xx answer (246, "guardrail failed without deny", included) with no error is a success. */
export function succeeded(outcome: Outcome): boolean {
  return outcome.error === undefined && outcome.status >= 200 && outcome.status < 300;
}

/**
 * With status codes given, exactly those statuses trigger (a success never does, even if listed);
 * without, every failure does: any non-2xx status, the client's own 4xx mistakes included, and
 * every error outcome (network error, reset, time-out, denial).
 */
export function triggersFallback(outcome: Outcome, codes: readonly number[] | undefined): boolean {
  if (succeeded(outcome)) return false;
  return codes === undefined || codes.includes(outcome.status);
}

/** The codes in force for child `child` of a fallback node: the child's own, else the strategy's; empty lists count as unset. */
export function statusCodesFor(child: { on_status_codes?: number[] } | undefined, strategyCodes: readonly number[] | undefined): readonly number[] | undefined {
  const own = child?.on_status_codes;
  if (own && own.length > 0) return own;
  return strategyCodes && strategyCodes.length > 0 ? strategyCodes : undefined;
}
