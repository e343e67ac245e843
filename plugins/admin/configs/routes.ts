/**
 * The stored-config routes:
 *   POST   /v1/configs              { name?, slug?, workspace_id?, config } → the record, version 1
 *   GET    /v1/configs              list (workspace_id; current_page, page_size), without the config bodies
 *   GET    /v1/configs/:id          the latest version (or ?version=N) with its `config`; id or slug
 *   PUT    /v1/configs/:id          { name?, slug?, config? }: a `config` makes a new version
 *   DELETE /v1/configs/:id          the config and all its versions
 * Scopes `configs.<create|list|read|update|delete>`; a workspace key works on its workspace's
 * configs and reads organisation-wide ones (no workspace_id).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  compile, Errors, requireScope, Type,
  type ConfigKeys, type PluginServices, type Principal, type RequestContext, type Router,
} from '../../../core/index.js';
import { json, nowIso, objectBody, pageOf, paginate, queryVersion, validated } from '../../../core/index.js';
import { IntegrationsService } from '../integrations/contract.js';
import { DirectoryService, type Directory } from '../workspaces/contract.js';
import type { StoredConfigCache } from './cache.js';
import type { ConfigRepo, ConfigRow } from './repo.js';
import { checkStoredConfig } from './validate.js';

const Slug = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$', errorMessage: 'must be 1 to 63 letters, digits, _ or -, starting with a letter or digit' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const CreateBody = Type.Object({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  workspace_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  config: Type.Object({}),
}, { additionalProperties: false });
const UpdateBody = Type.Object({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  config: Type.Optional(Type.Object({})),
}, { additionalProperties: false });
const validateCreate = compile(CreateBody);
const validateUpdate = compile(UpdateBody);

export interface RouteDeps {
  /** The gateway's route config: a stored config passes the same schema as a request's. */
  configKeys: ConfigKeys;
  repo: ConfigRepo;
  cache: StoredConfigCache;
  /** Integrations and the directory, when loaded, are looked up on use. */
  services: PluginServices;
  maxConfigBytes: number;
}

export function organisationOf(principal: Principal | undefined): string {
  return principal?.organisationId ?? 'default';
}

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, cache, services } = deps;

  const visible = async (ctx: RequestContext, principal: Principal): Promise<ConfigRow> => {
    const ref = ctx.params['id']!;
    const row = await repo.find(organisationOf(principal), ref);
    if (!row || !canSee(principal, row)) throw Errors.notFound(`no config "${ref}"`, 'config_not_found');
    return row;
  };
  const writable = (principal: Principal, row: ConfigRow) => {
    if (principal.workspaceId !== undefined && row.workspace_id !== principal.workspaceId) {
      throw Errors.forbidden(`config "${row.slug}" does not belong to workspace ${principal.workspaceId}`);
    }
  };
  const serialised = (config: Record<string, unknown>, principal: Principal): string => {
    checkStoredConfig(config, deps.configKeys, organisationOf(principal), services.find(IntegrationsService));
    const text = JSON.stringify(config);
    if (Buffer.byteLength(text) > deps.maxConfigBytes) throw Errors.invalidBody('config', `must be at most ${deps.maxConfigBytes} bytes as JSON`);
    return text;
  };

  routes.add({
    method: 'POST', path: '/v1/configs',
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = requireScope(ctx, 'configs.create');
      const org = organisationOf(principal);
      const workspaceId = await workspaceFor(principal, body.workspace_id, services.find(DirectoryService));
      const text = serialised(body.config, principal);
      const slug = body.slug ?? `pc-${randomBytes(6).toString('hex')}`;
      if (await repo.find(org, slug)) throw Errors.invalidBody('slug', `"${slug}" is taken by another config`);
      const now = nowIso();
      const row: ConfigRow = {
        id: randomUUID(), organisation_id: org, workspace_id: workspaceId ?? null, slug, name: body.name ?? slug,
        version: 1, created_at: now, last_updated_at: now,
      };
      await repo.insert(row, text);
      cache.changed(); // an id or slug remembered as unknown exists now
      return json(200, { ...toJson(row), config: body.config });
    },
  });

  routes.add({
    method: 'GET', path: '/v1/configs',
    handler: async (ctx) => {
      const principal = requireScope(ctx, 'configs.list');
      const page = pageOf(ctx);
      const workspace = ctx.request.query.get('workspace_id');
      const rows = (await repo.list(organisationOf(principal)))
        .filter((r) => canSee(principal, r) && (workspace === null || r.workspace_id === workspace));
      return json(200, paginate(rows.map(toJson), page));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/configs/:id',
    handler: async (ctx) => {
      const principal = requireScope(ctx, 'configs.read');
      const row = await visible(ctx, principal);
      const version = queryVersion(ctx) ?? row.version;
      const text = await repo.version(row.id, version);
      if (text === undefined) throw Errors.notFound(`config "${row.slug}" has no version ${version} (latest: ${row.version})`, 'config_version_not_found');
      return json(200, { ...toJson(row), version, latest_version: row.version, config: JSON.parse(text) });
    },
  });

  routes.add({
    method: 'PUT', path: '/v1/configs/:id',
    handler: async (ctx) => {
      const body = validated(validateUpdate, objectBody(ctx));
      const principal = requireScope(ctx, 'configs.update');
      const row = await visible(ctx, principal);
      writable(principal, row);
      const now = nowIso();
      if (body.slug !== undefined && body.slug !== row.slug) {
        const other = await repo.find(row.organisation_id, body.slug);
        if (other && other.id !== row.id) throw Errors.invalidBody('slug', `"${body.slug}" is taken by another config`);
      }
      if (body.name !== undefined || body.slug !== undefined) {
        await repo.rename(row.id, { name: body.name ?? row.name, slug: body.slug ?? row.slug }, now);
      }
      if (body.config !== undefined) await repo.addVersion(row.id, serialised(body.config, principal), now);
      cache.changed();
      const saved = (await repo.find(row.organisation_id, row.id))!;
      const text = (await repo.version(saved.id, saved.version))!;
      return json(200, { ...toJson(saved), config: JSON.parse(text) });
    },
  });

  routes.add({
    method: 'DELETE', path: '/v1/configs/:id',
    handler: async (ctx) => {
      const principal = requireScope(ctx, 'configs.delete');
      const row = await visible(ctx, principal);
      writable(principal, row);
      await repo.delete(row.id);
      cache.changed();
      return json(200, { id: row.id, object: 'config', deleted: true });
    },
  });
}

function canSee(principal: Principal, row: ConfigRow): boolean {
  return principal.workspaceId === undefined || row.workspace_id === null || row.workspace_id === principal.workspaceId;
}

function toJson(row: ConfigRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'config',
    slug: row.slug,
    name: row.name,
    organisation_id: row.organisation_id,
    workspace_id: row.workspace_id,
    version: row.version,
    status: 'active',
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
  };
}

/** A workspace key's configs are its workspace's; an organisation key may name one (id, or slug with the directory). */
async function workspaceFor(principal: Principal, given: string | undefined, directory: Directory | undefined): Promise<string | undefined> {
  const own = principal.workspaceId;
  if (own !== undefined) {
    if (given !== undefined && given !== own) throw Errors.forbidden(`a workspace key can only store configs in its own workspace (${own})`);
    return own;
  }
  if (given === undefined || !directory) return given;
  const ws = await directory.workspace(given, principal.organisationId);
  if (!ws || (principal.organisationId !== undefined && ws.organisation_id !== principal.organisationId)) {
    throw Errors.invalidBody('workspace_id', `unknown workspace "${given}"`);
  }
  return ws.id;
}
