/**
 * The admin routes: core's policy routes under /v1/policies/usage-limits (create, list with
 * ?status, ?type, ?workspace_id and paging, get, update, delete as archive), and two of its own:
 *   PUT    /v1/policies/usage-limits/:id          `reset_usage_for_value` also zeroes one group's current usage
 *   GET    /v1/policies/usage-limits/:id/usage    ?value=<value key>: one group's usage of the current period
 *   GET    /v1/policies/usage-limits/:id/alerts   the alerts raised, newest last (paginated)
 * GET and LIST expose periodic_reset, periodic_reset_days, next_usage_reset_at and last_reset_at (view.ts).
 */
import { json, listPage, pageOf, wallNow as now, type Router, type StateStore } from '../../../core/index.js';
import type { PolicyIndex } from '../limits-common/policy-index.js';
import { registerPolicyRoutes } from '../limits-common/policy-routes.js';
import type { Workspaces } from '../limits-common/scope.js';
import { alertKey, usageKey } from './budget.js';
import { newUsageLimit, usageLimitChanges } from './from-body.js';
import { OBJECT, type AlertKind, type StoredUsageLimit, type UsageLimitStore } from './policy-store.js';
import { periodAt } from './schedule.js';
import { createIssues, createValidator, updateIssues, updateValidator } from './schemas.js';
import { scheduleOf, toView } from './view.js';

const BASE = '/v1/policies/usage-limits';
const ALERT_KINDS: readonly AlertKind[] = ['threshold', 'exhausted'];

export interface RouteDeps {
  routes: Router;
  records: UsageLimitStore;
  index: PolicyIndex<StoredUsageLimit, unknown>;
  workspaces: Workspaces;
  state(): StateStore;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function registerRoutes(d: RouteDeps): void {
  const policies = registerPolicyRoutes(d.routes, {
    path: BASE,
    family: 'usage_limits',
    noun: 'usage-limit',
    object: OBJECT,
    types: ['cost', 'tokens'],
    records: d.records,
    index: d.index,
    workspaces: d.workspaces,
    create: { validator: createValidator, issues: createIssues },
    update: { validator: updateValidator, issues: updateIssues },
    newPolicy: newUsageLimit,
    changes: usageLimitChanges,
    afterUpdate: async (updated, body, changes) => {
      if (changes.alert_epoch !== undefined) await d.records.resetAlerts(updated.id);
      if (body.reset_usage_for_value !== undefined) await resetValue(updated, body.reset_usage_for_value);
    },
    view: toView,
  });

  d.routes.add({
    method: 'GET', path: `${BASE}/:id/usage`, body: 'none',
    handler: async (ctx) => {
      const policy = await policies.read(ctx);
      const value = ctx.request.query.get('value') ?? '';
      const period = periodAt(scheduleOf(policy), now());
      const raw = await d.state().get(usageKey(policy.id, period, value));
      const usage = raw === undefined ? 0 : Number(raw) || 0;
      return json(200, {
        object: 'usage_limit_usage',
        policy_id: policy.id,
        value_key: value,
        type: policy.type,
        usage,
        credit_limit: policy.credit_limit,
        remaining: Math.max(0, policy.credit_limit - usage),
        period_start: period.start === null ? null : iso(period.start),
        next_usage_reset_at: period.end === null ? null : iso(period.end),
      });
    },
  });

  d.routes.add({
    method: 'GET', path: `${BASE}/:id/alerts`, body: 'none',
    handler: async (ctx) => {
      const policy = await policies.read(ctx);
      const page = pageOf(ctx);
      const { data, total } = await d.records.alerts(policy.id, page.page * page.size, page.size);
      return json(200, listPage(page, total, data));
    },
  });

  /** One group's usage of the current period back to 0, with its alerts. */
  async function resetValue(policy: StoredUsageLimit, valueKey: string): Promise<void> {
    const at = now();
    const period = periodAt(scheduleOf(policy), at);
    const state = d.state();
    await state.delete(usageKey(policy.id, period, valueKey));
    for (const kind of ALERT_KINDS) await state.delete(alertKey(policy, period, valueKey, kind));
    await d.records.resetAlerts(policy.id, valueKey);
  }
}
