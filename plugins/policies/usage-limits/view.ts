/** A stored policy compiled for enforcement, and as the API shows it (schedule fields computed). */
import { compileMatcher, type Matcher } from '../limits-common/conditions.js';
import { OBJECT, type StoredUsageLimit } from './policy-store.js';
import { periodAt, type Schedule } from './schedule.js';

export interface ActiveUsageLimit {
  readonly policy: StoredUsageLimit;
  readonly matcher: Matcher;
  readonly schedule: Schedule;
  /** `"name" (id)` or the id, for messages and logs. */
  readonly label: string;
}

export function scheduleOf(policy: StoredUsageLimit): Schedule {
  return {
    periodic_reset: policy.periodic_reset,
    periodic_reset_days: policy.periodic_reset_days,
    reset_anchor: policy.reset_anchor === null ? null : Date.parse(policy.reset_anchor),
  };
}

export function compileUsageLimit(policy: StoredUsageLimit): ActiveUsageLimit {
  return {
    policy,
    matcher: compileMatcher(policy.conditions, policy.group_by),
    schedule: scheduleOf(policy),
    label: policy.name ? `"${policy.name}" (${policy.id})` : policy.id,
  };
}

export const unitOf = (policy: StoredUsageLimit) => (policy.type === 'cost' ? 'USD' : 'tokens');

/** The record as GET and LIST answer it: `next_usage_reset_at` and `last_reset_at` as of `at`. */
export function toView(policy: StoredUsageLimit, at: number) {
  const period = periodAt(scheduleOf(policy), at);
  const scheduled = period.start !== null && period.start > Date.parse(policy.created_at) ? period.start : null;
  const manual = policy.last_reset_at === null ? null : Date.parse(policy.last_reset_at);
  const last = Math.max(scheduled ?? -Infinity, manual ?? -Infinity);
  return {
    id: policy.id,
    object: OBJECT,
    name: policy.name,
    type: policy.type,
    credit_limit: policy.credit_limit,
    alert_threshold: policy.alert_threshold,
    periodic_reset: policy.periodic_reset,
    periodic_reset_days: policy.periodic_reset_days,
    next_usage_reset_at: period.end === null ? null : new Date(period.end).toISOString(),
    last_reset_at: Number.isFinite(last) ? new Date(last).toISOString() : null,
    status: policy.status,
    workspace_id: policy.workspace_id,
    organisation_id: policy.organisation_id,
    conditions: policy.conditions,
    group_by: policy.group_by,
    created_at: policy.created_at,
    last_updated_at: policy.last_updated_at,
  };
}
