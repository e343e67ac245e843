/**
 * How a create or update body becomes a stored row or its changes: schedule anchors, the rules
 * across fields that need the stored policy, and when alerts and periods start over.
 */
import { Errors, wallNow as now } from '../../../core/index.js';
import type { PolicyOwner, ResolveConditions } from '../limits-common/policy-routes.js';
import type { NewUsageLimit, StoredUsageLimit, UsageLimitChanges } from './policy-store.js';
import { defaultAnchor, utcMidnight, type PeriodicReset } from './schedule.js';
import { settledIssues, type CreateBody, type UpdateBody } from './schemas.js';

const iso = (ms: number) => new Date(ms).toISOString();
const has = (body: object, key: string) => Object.prototype.hasOwnProperty.call(body, key);

export function newUsageLimit(body: CreateBody, owner: PolicyOwner): NewUsageLimit {
  const days = body.periodic_reset_days ?? null;
  return {
    name: body.name ?? null,
    type: body.type,
    credit_limit: body.credit_limit,
    alert_threshold: body.alert_threshold ?? null,
    periodic_reset: body.periodic_reset ?? null,
    periodic_reset_days: days,
    reset_anchor: days === null ? null : iso(anchorOf(days, body.next_usage_reset_at)),
    conditions: owner.conditions,
    group_by: body.group_by,
    workspace_id: owner.workspace_id,
    organisation_id: owner.organisation_id,
  };
}

/** The stored changes of a PUT, after the rules across fields. */
export async function usageLimitChanges(body: UpdateBody, policy: StoredUsageLimit, conditions: ResolveConditions): Promise<UsageLimitChanges> {
  const settled = {
    credit_limit: body.credit_limit ?? policy.credit_limit,
    alert_threshold: has(body, 'alert_threshold') ? body.alert_threshold ?? null : policy.alert_threshold,
    periodic_reset: (has(body, 'periodic_reset') ? body.periodic_reset ?? null : policy.periodic_reset) as PeriodicReset | null,
    periodic_reset_days: has(body, 'periodic_reset_days') ? body.periodic_reset_days ?? null : policy.periodic_reset_days,
    next_usage_reset_at: body.next_usage_reset_at,
  };
  const issue = settledIssues(settled)[0];
  if (issue) throw Errors.invalidBody(issue.path, issue.rule);

  const at = now();
  const changes: UsageLimitChanges = {
    name: body.name,
    conditions: body.conditions && (await conditions(body.conditions)),
    group_by: body.group_by,
    credit_limit: body.credit_limit,
    alert_threshold: has(body, 'alert_threshold') ? settled.alert_threshold : undefined,
  };

  const days = settled.periodic_reset_days;
  const anchor = days === null ? null
    : body.next_usage_reset_at !== undefined ? anchorOf(days, body.next_usage_reset_at)
      : days === policy.periodic_reset_days && policy.reset_anchor !== null ? Date.parse(policy.reset_anchor) : defaultAnchor(days, at);
  const storedAnchor = policy.reset_anchor === null ? null : Date.parse(policy.reset_anchor);
  if (settled.periodic_reset !== policy.periodic_reset || days !== policy.periodic_reset_days || anchor !== storedAnchor) {
    // A new schedule starts a new period (its counters start from 0).
    changes.periodic_reset = settled.periodic_reset;
    changes.periodic_reset_days = days;
    changes.reset_anchor = anchor === null ? null : iso(anchor);
    changes.last_reset_at = iso(at);
  }

  // Raising the limit or the threshold resets the policy's alerts (v1.11.0).
  const raisedLimit = settled.credit_limit > policy.credit_limit;
  const raisedThreshold = settled.alert_threshold !== null && policy.alert_threshold !== null && settled.alert_threshold > policy.alert_threshold;
  if (raisedLimit || raisedThreshold) changes.alert_epoch = policy.alert_epoch + 1;
  if (body.reset_usage_for_value !== undefined) changes.last_reset_at = iso(at);
  return changes;
}

/** The first reset of a days schedule: the given date's 00:00 UTC, else today's midnight + N days. */
function anchorOf(days: number, given: string | undefined): number {
  return given === undefined ? defaultAnchor(days, now()) : utcMidnight(Date.parse(given));
}
