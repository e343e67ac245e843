/**
 * The API key routes:
 *   POST   /v1/api-keys                     create; answers the record plus `key` (shown this once)
 *   GET    /v1/api-keys                     list: type, workspace_id, user_id, status (comma list), current_page, page_size
 *   GET    /v1/api-keys/:id                 one record
 *   PUT    /v1/api-keys/:id                 name, scopes, expires_at, rotation_policy, default_config_id
 *   DELETE /v1/api-keys/:id                 every secret of the key stops working at once
 *   POST   /v1/api-keys/:id/rotate          new secret; the old one works until the transition window ends
 *   GET    /v1/api-keys/:id/pending-secret  the secret made by scheduled rotation or auto-creation, once
 * Scopes: api_keys.create | read | update | delete | rotate (`*.rotate` and `api_keys.*` cover them).
 * `default_config_id` names the stored config (admin.configs) that routes the key's requests that
 * name none; it must exist and not be another workspace's; stored as its id.
 */
import {
  Errors, isOrganisationLevel, listPage, noStoreJson, pageOf, parseBody, queryList, requireScope, requireWorkspace, roleAtLeast,
  STRICT_PAGING, userIdOf, workspaceRoleOf, type ApiKeyView, type KeyFilter, type KeyPatch, type KeyStore, type NewKey,
  type Principal, type RequestContext, type RouteDef,
} from '../../../core/index.js';
import { assertAdminOf, assertCanManage, assertCanSee, assertCovers, notFound } from './access.js';
import { futureMs } from './dates.js';
import { expiryFor, rotationFor, userKeyPolicy, type UserKeyPolicy } from './policy.js';
import type { StoredConfigs } from '../configs/contract.js';
import type { Directory, OrgSettings, WorkspaceRef } from '../workspaces/contract.js';
import { createBody, rotateBody, updateBody } from './schemas.js';

export interface ApiKeyRouteDeps {
  keys: KeyStore;
  /** admin.workspaces' services, when loaded. */
  directory(): Directory | undefined;
  settings(): OrgSettings | undefined;
  /** admin.configs' stored configs, when loaded (default_config_id). */
  configs(): StoredConfigs | undefined;
}

const KEY_TYPES = ['organisation-owner', 'organisation-service', 'workspace-service', 'workspace-user'] as const;
const STATUSES = ['active', 'deleted'] as const;

export function apiKeyRoutes(deps: ApiKeyRouteDeps): RouteDef[] {
  const { keys } = deps;

  const find = async (ctx: RequestContext, principal: Principal): Promise<ApiKeyView> => {
    const id = ctx.params['id']!;
    const key = await keys.get(id);
    if (!key) throw notFound(id);
    assertCanSee(principal, key);
    return key;
  };

  /** A workspace named by id or slug, of the caller's organisation and active. */
  const workspaceOf = async (idOrSlug: string, principal: Principal, param: string): Promise<Pick<WorkspaceRef, 'id' | 'slug' | 'organisation_id' | 'status'>> => {
    const directory = deps.directory();
    if (!directory) return { id: idOrSlug, slug: idOrSlug, organisation_id: organisationOf(principal), status: 'active' };
    const workspace = await directory.workspace(idOrSlug, principal.organisationId);
    if (!workspace || workspace.organisation_id !== principal.organisationId) throw Errors.invalidBody(param, `no workspace "${idOrSlug}"`);
    if (workspace.status !== 'active') throw Errors.invalidBody(param, `workspace "${idOrSlug}" is ${workspace.status}`);
    return workspace;
  };

  /** A default config named in a body, as its id (checked against the key's workspace). */
  const defaultConfig = async (ref: string, organisationId: string, workspaceId: string | undefined): Promise<string> => {
    const configs = deps.configs();
    if (!configs) throw Errors.invalidBody('default_config_id', 'needs stored configs (plugin admin.configs), which is not loaded');
    return (await configs.defaultFor(organisationId, ref, workspaceId)).id;
  };

  const policyFor = (key: Pick<ApiKeyView, 'type' | 'workspace_id'>): Promise<UserKeyPolicy> =>
    key.type === 'workspace-user' && key.workspace_id !== null ? userKeyPolicy(deps.settings(), key.workspace_id) : Promise.resolve({});

  return [
    {
      method: 'POST', path: '/v1/api-keys', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.create');
        const body = parseBody(ctx, createBody);
        if (body.expires_at !== undefined && body.ttl !== undefined) throw Errors.invalidBody('ttl', 'cannot be combined with expires_at');
        const scopes = body.scopes ?? [];
        assertCovers(principal, scopes);
        const input: NewKey = { name: body.name, type: body.type, organisationId: organisationOf(principal), scopes };
        if (body.type === 'organisation-service') {
          if (body.workspace_id !== undefined) throw Errors.invalidBody('workspace_id', 'is not allowed on an organisation-service key');
          if (body.user_id !== undefined) throw Errors.invalidBody('user_id', 'is only allowed on a workspace-user key');
          if (!isOrganisationLevel(principal)) throw Errors.forbidden('a workspace key cannot create organisation-service keys');
        } else {
          const named = body.workspace_id ?? principal.workspaceId;
          if (named === undefined) throw Errors.invalidBody('workspace_id', `is required for a ${body.type} key`);
          const workspace = await workspaceOf(named, principal, 'workspace_id');
          requireWorkspace(ctx, workspace.id);
          input.workspaceId = workspace.id;
          await fillKeyHolder(input, body.user_id, principal, workspace.id, deps.directory());
        }
        const policy = await policyFor({ type: body.type, workspace_id: input.workspaceId ?? null });
        const now = keys.now();
        const expiresAtMs = expiryFor(body, policy, now);
        if (expiresAtMs !== undefined) input.expiresAtMs = expiresAtMs;
        const rotation = rotationFor(body.rotation_policy, policy.rotationPeriod, now);
        if (rotation) input.rotation = rotation;
        if (body.default_config_id !== undefined) input.defaultConfigId = await defaultConfig(body.default_config_id, input.organisationId, input.workspaceId);
        const issued = await keys.create(input);
        return noStoreJson(200, { ...issued.record, key: issued.key });
      },
    },
    {
      method: 'GET', path: '/v1/api-keys', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.read');
        const page = pageOf(ctx, STRICT_PAGING);
        const filter = await listFilter(ctx, principal, deps.directory());
        const { total, data } = await keys.list(filter, page.page * page.size, page.size);
        return noStoreJson(200, listPage(page, total, data));
      },
    },
    {
      method: 'GET', path: '/v1/api-keys/:id', body: 'none',
      handler: async (ctx) => noStoreJson(200, await find(ctx, requireScope(ctx, 'api_keys.read'))),
    },
    {
      method: 'PUT', path: '/v1/api-keys/:id', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.update');
        const body = parseBody(ctx, updateBody);
        const key = await find(ctx, principal);
        assertCanManage(principal, key);
        if (key.type === 'organisation-owner' && (body.scopes !== undefined || body.expires_at !== undefined)) {
          throw Errors.invalidRequest('the scopes and expiry of an organisation owner key cannot change', null, 'owner_key');
        }
        const now = keys.now();
        const patch: KeyPatch = {};
        if (body.name !== undefined) patch.name = body.name;
        if (body.scopes !== undefined) {
          assertCovers(principal, body.scopes);
          patch.scopes = body.scopes;
        }
        if (body.expires_at !== undefined) patch.expiresAtMs = body.expires_at === null ? null : futureMs(body.expires_at, now, 'expires_at');
        if (body.rotation_policy !== undefined) {
          const enforced = (await policyFor(key)).rotationPeriod;
          if (body.rotation_policy === null && enforced) {
            throw Errors.invalidBody('rotation_policy', `cannot be removed: the organisation enforces a ${enforced} rotation on workspace-user keys`);
          }
          patch.rotation = body.rotation_policy === null ? null : rotationFor(body.rotation_policy, enforced, now, key.rotation_policy) ?? null;
        }
        if (body.default_config_id !== undefined) {
          patch.defaultConfigId = body.default_config_id === null ? null : await defaultConfig(body.default_config_id, organisationOf(principal), key.workspace_id ?? undefined);
        }
        const updated = await keys.update(key.id, patch);
        if (!updated) throw notFound(key.id);
        return noStoreJson(200, updated);
      },
    },
    {
      method: 'DELETE', path: '/v1/api-keys/:id', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.delete');
        const key = await find(ctx, principal);
        assertCanManage(principal, key);
        if (key.type === 'organisation-owner') throw Errors.invalidRequest('an organisation owner key cannot be deleted; rotate it instead', null, 'owner_key');
        if (!(await keys.delete(key.id))) throw notFound(key.id);
        return noStoreJson(200, { id: key.id, object: 'api-key', deleted: true });
      },
    },
    {
      method: 'POST', path: '/v1/api-keys/:id/rotate', body: 'json',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.rotate');
        const body = parseBody(ctx, rotateBody);
        const key = await find(ctx, principal);
        assertCanManage(principal, key);
        const issued = await keys.rotate(key.id, body.key_transition_period_ms);
        if (!issued) throw notFound(key.id);
        return noStoreJson(200, { ...issued.record, key: issued.key });
      },
    },
    {
      method: 'GET', path: '/v1/api-keys/:id/pending-secret', body: 'none',
      handler: async (ctx) => {
        const principal = requireScope(ctx, 'api_keys.read');
        const key = await find(ctx, principal);
        assertCanManage(principal, key);
        assertAdminOf(principal, key);
        const secret = await keys.takePendingSecret(key.id);
        if (secret === undefined) throw Errors.notFound(`API key ${key.id} has no pending secret (none was made, or it was read already)`, 'no_pending_secret');
        return noStoreJson(200, { id: key.id, object: 'api-key-secret', key: secret });
      },
    },
  ];
}

/** Who holds a workspace-user key: the caller's own user by default; a member only for themselves. */
async function fillKeyHolder(input: NewKey, userId: string | undefined, principal: Principal, workspaceId: string, directory: Directory | undefined): Promise<void> {
  const role = workspaceRoleOf(principal, workspaceId);
  if (input.type === 'workspace-service') {
    if (userId !== undefined) throw Errors.invalidBody('user_id', 'is only allowed on a workspace-user key');
    if (!roleAtLeast(role, 'manager')) throw Errors.forbidden('a workspace member cannot create workspace-service keys');
    return;
  }
  const holder = userId ?? userIdOf(principal);
  if (holder === undefined) throw Errors.invalidBody('user_id', 'is required for a workspace-user key');
  if (role === 'member' && holder !== userIdOf(principal)) throw Errors.forbidden('a workspace member creates keys only for themselves');
  const membership = directory ? await directory.member(workspaceId, holder) : { role: 'member' };
  if (!membership) throw Errors.invalidBody('user_id', `user "${holder}" is not a member of workspace ${workspaceId}`);
  input.userId = holder;
  input.role = membership.role;
}

/** What a list shows: the caller's organisation; a workspace key only its workspace; a member only their own keys. */
async function listFilter(ctx: RequestContext, principal: Principal, directory: Directory | undefined): Promise<KeyFilter> {
  const query = ctx.request.query;
  const filter: KeyFilter = { organisationId: organisationOf(principal), statuses: queryList(ctx, 'status', STATUSES) ?? ['active'] };
  const type = queryList(ctx, 'type', KEY_TYPES);
  if (type && type.length > 1) throw Errors.invalidRequest('query.type: name one key type', 'type', 'invalid_query');
  if (type?.[0]) filter.type = type[0];
  const workspace = query.get('workspace_id');
  if (workspace) filter.workspaceId = (await workspaceOrAny(directory, workspace, principal)).id;
  if (!isOrganisationLevel(principal)) {
    if (filter.workspaceId !== undefined) requireWorkspace(ctx, filter.workspaceId);
    filter.workspaceId = principal.workspaceId!;
  }
  const user = query.get('user_id');
  if (user) filter.userId = user;
  if (principal.type === 'workspace-user' && workspaceRoleOf(principal, filter.workspaceId!) === 'member') {
    const self = userIdOf(principal);
    if (user && user !== self) throw Errors.forbidden('a workspace member lists only their own API keys');
    filter.userId = self ?? '';
  }
  return filter;
}

/** A list filter's workspace: known ones by id or slug; unknown ones match nothing rather than fail. */
async function workspaceOrAny(directory: Directory | undefined, idOrSlug: string, principal: Principal): Promise<{ id: string }> {
  const workspace = await directory?.workspace(idOrSlug, principal.organisationId);
  return workspace && workspace.organisation_id === principal.organisationId ? workspace : { id: idOrSlug };
}

function organisationOf(principal: Principal): string {
  if (principal.organisationId === undefined) throw Errors.forbidden('the API key belongs to no organisation');
  return principal.organisationId;
}
