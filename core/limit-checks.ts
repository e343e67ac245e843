/**
 * Limit checks skipped for a request. A check that fails open lets its request through unchecked:
 * that must not be silent. The check marks the request here, so observers such as metrics can
 * count it without knowing which plugin checked (the time-out and the warning are the limit
 * plugins' own: plugins/policies/limits-common/check-timeout.ts).
 */
import type { RequestContext } from './types.js';

/** `ctx.locals` key: the names of the limit checks skipped for this request (a string array). */
export const SKIPPED_LIMIT_CHECKS = Symbol.for('gw.limits.skipped');

export function markSkippedCheck(ctx: RequestContext, check: string): void {
  const skipped = ctx.locals.get(SKIPPED_LIMIT_CHECKS) as string[] | undefined;
  if (skipped) skipped.push(check);
  else ctx.locals.set(SKIPPED_LIMIT_CHECKS, [check]);
}

export function skippedChecksOf(ctx: RequestContext): readonly string[] | undefined {
  return ctx.locals.get(SKIPPED_LIMIT_CHECKS) as string[] | undefined;
}
