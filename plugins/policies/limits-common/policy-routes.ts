/**
 * The admin routes every policy kind has (rate limits, usage limits), under its base path:
 *   POST   <path>       create → { id, object }
 *   GET    <path>       list: ?status (active), ?type, ?workspace_id, ?current_page, ?page_size
 *   GET    <path>/:id   ?status=active|archived (default active; 404 when it differs)
 *   PUT    <path>/:id   update → the policy
 *   DELETE <path>/:id   archive (no longer enforced; still readable with ?status=archived)
 * Scopes, ownership and visibility as scope.ts says. Every change reloads the in-memory index
 * before answering, so it applies to the next request. A kind brings only what differs: its
 * bodies, how they become a stored row or changes, and how a record is shown.
 */
import {
  Errors, json, listPage, pageOf, type Issue, type Principal, type RequestContext, type Router, type Validator,
} from '../../../core/index.js';
import { queryEnum, validBody } from './admin-body.js';
import type { Condition } from './conditions.js';
import type { PolicyListFilter } from './policy-table.js';
import { authorise, visibleTo, type Workspaces } from './scope.js';

export type PolicyStatus = 'active' | 'archived';
const STATUSES: readonly PolicyStatus[] = ['active', 'archived'];

/** What the shared routes read of a stored policy. */
export interface PolicyRecord {
  id: string;
  status: string;
  organisation_id: string;
  workspace_id: string;
}

/** The fields every create body has (the kind's schema declares them). */
export interface PolicyCreateFields {
  conditions: Condition[];
  /** Id or slug; default: the caller's workspace (the default workspace for organisation keys). */
  workspace_id?: string;
  /** Default and only allowed value: the caller's organisation. */
  organisation_id?: string;
}

/** A kind's table (policy-table.ts does the shared queries): P stored, N new, C changes. */
export interface PolicyRecords<P, N, C> {
  insert(policy: N): Promise<P>;
  get(id: string): Promise<P | undefined>;
  update(id: string, changes: C | { status: 'archived' }): Promise<P | undefined>;
  list(filter: PolicyListFilter, offset: number, limit: number): Promise<{ data: P[]; total: number }>;
}

/** A body's schema, and its rules across fields (400 naming the first broken one). */
export interface BodyRules<B> {
  validator: Validator<B>;
  issues?: (body: B) => Issue[];
}

/** Where a new policy lives, and its conditions with `workspace_id` values resolved to ids. */
export interface PolicyOwner {
  workspace_id: string;
  organisation_id: string;
  conditions: Condition[];
}

/** `workspace_id` condition values as ids; 403 for a workspace the caller may not select. */
export type ResolveConditions = (conditions: Condition[]) => Promise<Condition[]>;

export interface PolicyKind<P extends PolicyRecord, CB extends PolicyCreateFields, UB, N, C> {
  /** Base path, e.g. `/v1/policies/rate-limits`. */
  path: string;
  /** Scope family: routes need `<family>.<action>`. */
  family: string;
  /** As in `no active <noun> policy "<id>"`. */
  noun: string;
  /** The `object` of create and delete answers. */
  object: string;
  /** Values of the `?type` list filter; an unknown one is a 400. */
  types: readonly [string, ...string[]];
  records: PolicyRecords<P, N, C>;
  /** Reloads this instance's index and tells the others (PolicyIndex.changed). */
  index: { changed(): Promise<void> };
  workspaces: Workspaces;
  create: BodyRules<CB>;
  update: BodyRules<UB>;
  newPolicy(body: CB, owner: PolicyOwner): N;
  /** The stored changes of a PUT (may throw a 400 for rules that need the stored policy). */
  changes(body: UB, policy: P, conditions: ResolveConditions): Promise<C> | C;
  /** Side effects of a PUT once stored, before the indexes reload. */
  afterUpdate?(updated: P, body: UB, changes: C): Promise<void>;
  /** The record as GET, LIST and PUT answer it, as of `at` (Date.now()); default: as stored. */
  view?(policy: P, at: number): unknown;
}

export interface PolicyRoutes<P> {
  /** The policy `:id` for a caller with `<family>.read`, in the `?status` asked (default active); 404 otherwise. */
  read(ctx: RequestContext): Promise<P>;
}

export function registerPolicyRoutes<P extends PolicyRecord, CB extends PolicyCreateFields, UB, N, C>(
  routes: Router, kind: PolicyKind<P, CB, UB, N, C>,
): PolicyRoutes<P> {
  const { path, family, records, index, workspaces } = kind;
  const view = (policy: P, at: number) => (kind.view ? kind.view(policy, at) : policy);
  const statusOf = (ctx: RequestContext) => queryEnum<PolicyStatus>(ctx, 'status', STATUSES, 'active');

  const find = async (ctx: RequestContext, principal: Principal, status: PolicyStatus): Promise<P> => {
    const id = ctx.params['id']!;
    const policy = await records.get(id);
    if (!policy || !visibleTo(principal, policy) || policy.status !== status) {
      throw Errors.notFound(`no ${status} ${kind.noun} policy "${id}"`, 'policy_not_found');
    }
    return policy;
  };
  const read = async (ctx: RequestContext): Promise<P> => {
    const principal = authorise(ctx, family, 'read');
    return find(ctx, principal, statusOf(ctx));
  };
  const resolver = (principal: Principal): ResolveConditions => (conditions) => Promise.all(conditions.map(async (c) => (
    c.key === 'workspace_id' ? { ...c, value: await workspaces.workspaceCondition(principal, c.value) } : c
  )));

  routes.add({
    method: 'POST', path, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, family, 'create');
      const body = validBody(ctx, kind.create.validator, kind.create.issues);
      const owner = await workspaces.owner(principal, body.workspace_id, body.organisation_id);
      const policy = await records.insert(kind.newPolicy(body, {
        workspace_id: owner.workspaceId,
        organisation_id: owner.organisationId,
        conditions: await resolver(principal)(body.conditions),
      }));
      await index.changed();
      return json(200, { id: policy.id, object: kind.object });
    },
  });

  routes.add({
    method: 'GET', path, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, family, 'list');
      const page = pageOf(ctx);
      const wanted = ctx.request.query.get('workspace_id') ?? undefined;
      if (principal.workspaceId !== undefined && wanted !== undefined && wanted !== principal.workspaceId) {
        throw Errors.forbidden(`the API key does not belong to workspace ${wanted}`);
      }
      const type = ctx.request.query.get('type') === null ? undefined : queryEnum(ctx, 'type', kind.types, kind.types[0]);
      const { data, total } = await records.list({
        organisationId: principal.organisationId ?? '',
        workspaceId: principal.workspaceId ?? wanted,
        status: statusOf(ctx),
        type,
      }, page.page * page.size, page.size);
      const at = Date.now();
      return json(200, listPage(page, total, data.map((p) => view(p, at))));
    },
  });

  routes.add({
    method: 'GET', path: `${path}/:id`, body: 'none',
    handler: async (ctx) => {
      const policy = await read(ctx);
      return json(200, view(policy, Date.now()));
    },
  });

  routes.add({
    method: 'PUT', path: `${path}/:id`, body: 'json',
    handler: async (ctx) => {
      const principal = authorise(ctx, family, 'update');
      const body = validBody(ctx, kind.update.validator, kind.update.issues);
      const policy = await find(ctx, principal, 'active');
      const changes = await kind.changes(body, policy, resolver(principal));
      // Rows are archived, never deleted: the record is there.
      const updated = (await records.update(policy.id, changes))!;
      await kind.afterUpdate?.(updated, body, changes);
      await index.changed();
      return json(200, view(updated, Date.now()));
    },
  });

  routes.add({
    method: 'DELETE', path: `${path}/:id`, body: 'none',
    handler: async (ctx) => {
      const principal = authorise(ctx, family, 'delete');
      const policy = await find(ctx, principal, 'active');
      await records.update(policy.id, { status: 'archived' });
      await index.changed();
      return json(200, { id: policy.id, object: kind.object, status: 'archived' });
    },
  });

  return { read };
}
