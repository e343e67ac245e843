/**
 * The admin routes (spec §4.14, §4.15):
 *   POST   /v1/policies/rate-limits            create → { id, object }
 *   GET    /v1/policies/rate-limits            list: ?status (active), ?type, ?workspace_id, ?current_page, ?page_size
 *   GET    /v1/policies/rate-limits/:id        ?status=active|archived (default active; 404 when it differs)
 *   PUT    /v1/policies/rate-limits/:id        update name, conditions, group_by, type, unit, value → the policy
 *   DELETE /v1/policies/rate-limits/:id        archive (no longer enforced; still readable with ?status=archived)
 * Every change reloads the in-memory index before answering, so it applies to the next request.
 */
import { Errors, json, pageOf, type Principal, type RequestContext, type Router } from '../../core/index.js';
import type { Condition } from '../../core/index.js';
import { queryEnum, validBody } from '../../core/index.js';
import type { PolicyIndex } from '../../core/index.js';
import { OBJECT, type LimitType, type PolicyChanges, type RateLimitPolicy, type RateLimitPolicyStore, type Status } from './policy-store.js';
import { createIssues, createValidator, updateIssues, updateValidator } from './schemas.js';
import { authorise, visibleTo, type Workspaces } from '../../core/index.js';

const BASE = '/v1/policies/rate-limits';
const FAMILY = 'rate_limits';

export interface RouteDeps {
  routes: Router;
  store: RateLimitPolicyStore;
  index: PolicyIndex<RateLimitPolicy, unknown>;
  workspaces: Workspaces;
}

export function registerRoutes(d: RouteDeps): void {
  const find = async (ctx: RequestContext, principal: Principal, status: Status): Promise<RateLimitPolicy> => {
    const id = ctx.params['id']!;
    const policy = await d.store.get(id);
    if (!policy || !visibleTo(principal, policy) || policy.status !== status) {
      throw Errors.notFound(`no ${status} rate-limit policy "${id}"`, 'policy_not_found');
    }
    return policy;
  };

  const conditionsOf = async (principal: Principal, conditions: Condition[]): Promise<Condition[]> => Promise.all(conditions.map(async (c) => (
    c.key === 'workspace_id' ? { ...c, value: await d.workspaces.workspaceCondition(principal, c.value) } : c
  )));

  d.routes.add({
    method: 'POST', path: BASE, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'create');
      const body = validBody(ctx, createValidator, createIssues);
      const owner = await d.workspaces.owner(principal, body.workspace_id, body.organisation_id);
      const policy = await d.store.insert({
        name: body.name ?? null,
        type: body.type,
        unit: body.unit,
        value: body.value,
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
      const type = ctx.request.query.get('type') === null ? undefined : queryEnum<LimitType>(ctx, 'type', ['requests', 'tokens'], 'requests');
      const { data, total } = await d.store.list({
        organisationId: principal.organisationId ?? '',
        workspaceId: principal.workspaceId ?? wanted,
        status: queryEnum<Status>(ctx, 'status', ['active', 'archived'], 'active'),
        type,
      }, page.page * page.size, page.size);
      return json(200, { object: 'list', total_count: total, current_page: page.page, page_size: page.size, data });
    },
  });

  d.routes.add({
    method: 'GET', path: `${BASE}/:id`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'read');
      return json(200, await find(ctx, principal, queryEnum<Status>(ctx, 'status', ['active', 'archived'], 'active')));
    },
  });

  d.routes.add({
    method: 'PUT', path: `${BASE}/:id`, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'update');
      const body = validBody(ctx, updateValidator, updateIssues);
      const policy = await find(ctx, principal, 'active');
      const changes: PolicyChanges = {
        name: body.name,
        type: body.type,
        unit: body.unit,
        value: body.value,
        conditions: body.conditions && (await conditionsOf(principal, body.conditions)),
        group_by: body.group_by,
      };
      const updated = await d.store.update(policy.id, changes);
      await d.index.reload();
      return json(200, updated);
    },
  });

  d.routes.add({
    method: 'DELETE', path: `${BASE}/:id`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, FAMILY, 'delete');
      const policy = await find(ctx, principal, 'active');
      await d.store.update(policy.id, { status: 'archived' });
      await d.index.reload();
      return json(200, { id: policy.id, object: OBJECT, status: 'archived' });
    },
  });
}
