/**
 * The admin routes:
 *   POST   /v1/policies/usage-limits              create → { id, object }
 *   GET    /v1/policies/usage-limits              list: ?status (active), ?type, ?workspace_id, ?current_page, ?page_size
 *   GET    /v1/policies/usage-limits/:id          ?status=active|archived (default active; 404 when it differs)
 *   PUT    /v1/policies/usage-limits/:id          update; `reset_usage_for_value` zeroes one group's current usage
 *   DELETE /v1/policies/usage-limits/:id          archive (no longer enforced; readable with ?status=archived)
 *   GET    /v1/policies/usage-limits/:id/usage    ?value=<value key>: one group's usage of the current period
 *   GET    /v1/policies/usage-limits/:id/alerts   the alerts raised, newest last (paginated)
 * GET and LIST expose periodic_reset, periodic_reset_days, next_usage_reset_at and last_reset_at.
 * Every change reloads the in-memory index before answering, so it applies to the next request.
 */
import { Errors, json, pageOf, type Principal, type RequestContext, type Router, type StateStore } from '../../core/index.js';
import { alertKey, usageKey } from './budget.js';
import { now } from './clock.js';
import type { Condition } from '../../core/index.js';
import { queryEnum, validBody } from '../../core/index.js';
import type { PolicyIndex } from '../../core/index.js';
import {
  OBJECT, type AlertKind, type Status, type StoredUsageLimit, type UsageLimitChanges, type UsageLimitStore, type UsageType,
} from './policy-store.js';
import { defaultAnchor, periodAt, utcMidnight, type PeriodicReset } from './schedule.js';
import { createIssues, createValidator, settledIssues, updateIssues, updateValidator, type UpdateBody } from './schemas.js';
import { authorise, visibleTo, type Workspaces } from '../../core/index.js';
import { scheduleOf, toView } from './view.js';

const BASE = '/v1/policies/usage-limits';
const FAMILY = 'usage_limits';
const ALERT_KINDS: readonly AlertKind[] = ['threshold', 'exhausted'];

export interface RouteDeps {
  routes: Router;
  records: UsageLimitStore;
  index: PolicyIndex<StoredUsageLimit, unknown>;
  workspaces: Workspaces;
  state(): StateStore;
}

const iso = (ms: number) => new Date(ms).toISOString();
const has = (body: object, key: string) => Object.prototype.hasOwnProperty.call(body, key);

export function registerRoutes(d: RouteDeps): void {
  const find = async (ctx: RequestContext, principal: Principal, status: Status): Promise<StoredUsageLimit> => {
    const id = ctx.params['id']!;
    const policy = await d.records.get(id);
    if (!policy || !visibleTo(principal, policy) || policy.status !== status) {
      throw Errors.notFound(`no ${status} usage-limit policy "${id}"`, 'policy_not_found');
    }
    return policy;
  };
  const statusOf = (ctx: RequestContext) => queryEnum<Status>(ctx, 'status', ['active', 'archived'], 'active');

  const conditionsOf = async (principal: Principal, conditions: Condition[]): Promise<Condition[]> => Promise.all(conditions.map(async (c) => (
    c.key === 'workspace_id' ? { ...c, value: await d.workspaces.workspaceCondition(principal, c.value) } : c
  )));

  d.routes.add({
    method: 'POST', path: BASE, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'create');
      const body = validBody(ctx, createValidator, createIssues);
      const owner = await d.workspaces.owner(principal, body.workspace_id, body.organisation_id);
      const days = body.periodic_reset_days ?? null;
      const policy = await d.records.insert({
        name: body.name ?? null,
        type: body.type,
        credit_limit: body.credit_limit,
        alert_threshold: body.alert_threshold ?? null,
        periodic_reset: body.periodic_reset ?? null,
        periodic_reset_days: days,
        reset_anchor: days === null ? null : iso(anchorOf(days, body.next_usage_reset_at)),
        conditions: await conditionsOf(principal, body.conditions),
        group_by: body.group_by,
        workspace_id: owner.workspaceId,
        organisation_id: owner.organisationId,
      });
      await d.index.reload();
      return json(200, { id: policy.id, object: OBJECT });
    },
  });

  d.routes.add({
    method: 'GET', path: BASE, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'list');
      const page = pageOf(ctx);
      const wanted = ctx.request.query.get('workspace_id') ?? undefined;
      if (principal.workspaceId !== undefined && wanted !== undefined && wanted !== principal.workspaceId) {
        throw Errors.forbidden(`the API key does not belong to workspace ${wanted}`);
      }
      const type = ctx.request.query.get('type') === null ? undefined : queryEnum<UsageType>(ctx, 'type', ['cost', 'tokens'], 'cost');
      const { data, total } = await d.records.list({
        organisationId: principal.organisationId ?? '',
        workspaceId: principal.workspaceId ?? wanted,
        status: statusOf(ctx),
        type,
      }, page.page * page.size, page.size);
      const at = now();
      return json(200, {
        object: 'list', total_count: total, current_page: page.page, page_size: page.size, data: data.map((p) => toView(p, at)),
      });
    },
  });

  d.routes.add({
    method: 'GET', path: `${BASE}/:id`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'read');
      return json(200, toView(await find(ctx, principal, statusOf(ctx)), now()));
    },
  });

  d.routes.add({
    method: 'PUT', path: `${BASE}/:id`, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'update');
      const body = validBody(ctx, updateValidator, updateIssues);
      const policy = await find(ctx, principal, 'active');
      const changes = await changesOf(policy, body, principal);
      const updated = (await d.records.update(policy.id, changes))!;
      if (changes.alert_epoch !== undefined) await d.records.resetAlerts(policy.id);
      if (body.reset_usage_for_value !== undefined) await resetValue(updated, body.reset_usage_for_value);
      await d.index.reload();
      return json(200, toView(updated, now()));
    },
  });

  d.routes.add({
    method: 'DELETE', path: `${BASE}/:id`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'delete');
      const policy = await find(ctx, principal, 'active');
      await d.records.update(policy.id, { status: 'archived' });
      await d.index.reload();
      return json(200, { id: policy.id, object: OBJECT, status: 'archived' });
    },
  });

  d.routes.add({
    method: 'GET', path: `${BASE}/:id/usage`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'read');
      const policy = await find(ctx, principal, statusOf(ctx));
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
      const principal = authorise(ctx, FAMILY, 'read');
      const policy = await find(ctx, principal, statusOf(ctx));
      const page = pageOf(ctx);
      const { data, total } = await d.records.alerts(policy.id, page.page * page.size, page.size);
      return json(200, { object: 'list', total_count: total, current_page: page.page, page_size: page.size, data });
    },
  });

  /** The stored changes of a PUT, after the rules across fields. */
  async function changesOf(policy: StoredUsageLimit, body: UpdateBody, principal: Principal): Promise<UsageLimitChanges> {
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
      conditions: body.conditions && (await conditionsOf(principal, body.conditions)),
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

/** The first reset of a days schedule: the given date's 00:00 UTC, else today's midnight + N days. */
function anchorOf(days: number, given: string | undefined): number {
  return given === undefined ? defaultAnchor(days, now()) : utcMidnight(Date.parse(given));
}
