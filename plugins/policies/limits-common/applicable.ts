/**
 * The enforcement entry both policy kinds share (rate limits, usage limits): which active policies
 * apply to a request, resolved on the hot path without touching a store while nothing applies.
 */
import type { RequestContext } from '../../../core/index.js';
import type { Matcher } from './conditions.js';
import type { PolicyIndex, Scoped } from './policy-index.js';
import { organisationOf, type Workspaces } from './scope.js';

const NOTHING: Promise<undefined> = Promise.resolve(undefined);

/** A compiled policy: anything carrying the matcher of its conditions and group_by. */
export interface MatchedPolicy {
  readonly matcher: Matcher;
}

const byConditions = (active: MatchedPolicy, ctx: RequestContext, workspaceId: string) => active.matcher.matches(ctx, workspaceId);

/**
 * Runs `check` with the policies that apply to an authenticated request (after its workspace is
 * known: the organisation's default workspace is looked up once); resolves at once when none do.
 */
export function enforceApplicable<P extends Scoped, C extends MatchedPolicy>(
  ctx: RequestContext,
  index: PolicyIndex<P, C>,
  workspaces: Workspaces,
  check: (workspaceId: string, matched: C[]) => Promise<undefined>,
): Promise<undefined> {
  if (index.empty) return NOTHING;
  const principal = ctx.principal;
  if (!principal) return NOTHING;
  const organisationId = organisationOf(principal);
  const workspaceId = workspaces.requestWorkspace(principal);
  if (workspaceId === undefined) {
    return workspaces.resolveDefault(organisationId).then(() => enforceApplicable(ctx, index, workspaces, check));
  }
  const matched = index.matching(ctx, organisationId, workspaceId, byConditions);
  return matched ? check(workspaceId, matched) : NOTHING;
}
