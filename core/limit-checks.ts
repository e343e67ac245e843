/**
 * Limit checks skipped for a request. A check that fails open lets its request through unchecked:
 * that must not be silent. The check marks the request here, so observers such as metrics can
 * count it without knowing which plugin checked (the time-out and the warning are the limit
 * plugins' own: plugins/policies/limits-common/check-timeout.ts).
 */
import { requestKey } from './request-values.js';
import type { RequestContext } from './types.js';

/** The names of the limit checks skipped for this request. */
export const SkippedLimitChecksKey = requestKey<string[]>('limits.skipped');

export function markSkippedCheck(ctx: RequestContext, check: string): void {
  const skipped = ctx.values.get(SkippedLimitChecksKey);
  if (skipped) skipped.push(check);
  else ctx.values.set(SkippedLimitChecksKey, [check]);
}

export function skippedChecksOf(ctx: RequestContext): readonly string[] | undefined {
  return ctx.values.get(SkippedLimitChecksKey);
}
