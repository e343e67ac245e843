/**
 * The admin routes (spec §4.14, §4.15), core's policy routes under /v1/policies/rate-limits:
 * create, list (?status, ?type, ?workspace_id, paging), get, update (name, conditions, group_by,
 * type, unit, value → the policy) and delete (archive). Records are answered as stored.
 */
import type { Router } from '../../../core/index.js';
import type { PolicyIndex } from '../limits-common/policy-index.js';
import { registerPolicyRoutes } from '../limits-common/policy-routes.js';
import type { Workspaces } from '../limits-common/scope.js';
import { OBJECT, type RateLimitPolicy, type RateLimitPolicyStore } from './policy-store.js';
import { createIssues, createValidator, updateIssues, updateValidator } from './schemas.js';

export interface RouteDeps {
  routes: Router;
  store: RateLimitPolicyStore;
  index: PolicyIndex<RateLimitPolicy, unknown>;
  workspaces: Workspaces;
}

export function registerRoutes(d: RouteDeps): void {
  registerPolicyRoutes(d.routes, {
    path: '/v1/policies/rate-limits',
    family: 'rate_limits',
    noun: 'rate-limit',
    object: OBJECT,
    types: ['requests', 'tokens'],
    records: d.store,
    index: d.index,
    workspaces: d.workspaces,
    create: { validator: createValidator, issues: createIssues },
    update: { validator: updateValidator, issues: updateIssues },
    newPolicy: (body, owner) => ({
      name: body.name ?? null,
      type: body.type,
      unit: body.unit,
      value: body.value,
      conditions: owner.conditions,
      group_by: body.group_by,
      workspace_id: owner.workspace_id,
      organisation_id: owner.organisation_id,
    }),
    changes: async (body, _policy, conditions) => ({
      name: body.name,
      type: body.type,
      unit: body.unit,
      value: body.value,
      conditions: body.conditions && (await conditions(body.conditions)),
      group_by: body.group_by,
    }),
  });
}
