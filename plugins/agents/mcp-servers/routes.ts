/**
 * The MCP server registry routes:
 *   POST   /v1/mcp-servers        register
 *   GET    /v1/mcp-servers        list (workspace_id; current_page, page_size)
 *   GET    /v1/mcp-servers/:id    one (id or slug)
 *   PUT    /v1/mcp-servers/:id    update (fields given replace the stored ones)
 *   DELETE /v1/mcp-servers/:id    delete
 * Upstream secrets are sealed before they are written and never answered (masks instead).
 */
import { randomUUID } from 'node:crypto';
import { Errors, insertRecord, json, nowIso, saveRecord, type RecordWriter, objectBody, pageOf, paginate, validated, type Principal, type RequestContext, type Router } from '../../../core/index.js';
import { allowedIn, authorizeCredentials, authorizeWrite, canSee, organisationOf, requireOwnWorkspace, requireRead } from './access.js';
import { fromRow, toJson, type McpServer, type McpServerRow } from './record.js';
import type { McpServerRepo } from './repo.js';
import { createAuth, credentialChanges, newRow, ownershipFor, updatedRow, type RowDeps } from './rows.js';
import { validateCreate, validateUpdate } from './schemas.js';

export interface RouteDeps extends RowDeps {
  repo: McpServerRepo;
}

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, catalogue } = deps;

  /** The server named by the path, as the caller may see it; 404 otherwise. */
  const visible = (ctx: RequestContext, principal: Principal): McpServer => {
    const ref = ctx.params['id']!;
    const server = catalogue.find(organisationOf(principal), ref);
    if (!server || !canSee(principal, server)) throw Errors.notFound(`no MCP server "${ref}"`, 'mcp_server_not_found');
    return server;
  };

  routes.add({
    method: 'POST', path: '/v1/mcp-servers',
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'create', deps.services);
      const org = organisationOf(principal);
      const ownership = await ownershipFor(principal, body, deps.services);
      const auth = createAuth(body, org, deps);
      if (auth.public.type !== 'none' && auth.public.type !== 'user_bearer') await authorizeCredentials(principal, deps.services, 'auth');
      if ((body.secret_mappings ?? []).length > 0) await authorizeCredentials(principal, deps.services, 'secret_mappings');
      if (catalogue.slugTaken(org, body.slug)) throw Errors.invalidBody('slug', `"${body.slug}" is taken by another MCP server`);
      const id = randomUUID();
      const row = newRow(id, org, body, auth, ownership, deps.box, nowIso());
      const server = await insertRecord(writerOf(deps), row);
      return json(200, toJson(server));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/mcp-servers',
    handler: async (ctx) => {
      const principal = requireRead(ctx, 'list');
      const page = pageOf(ctx);
      const workspace = ctx.request.query.get('workspace_id');
      const items = catalogue.list(organisationOf(principal))
        .filter((s) => canSee(principal, s) && (workspace === null || allowedIn(s, workspace)));
      return json(200, paginate(items.map(toJson), page));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/mcp-servers/:id',
    handler: async (ctx) => json(200, toJson(visible(ctx, requireRead(ctx, 'read')))),
  });

  routes.add({
    method: 'PUT', path: '/v1/mcp-servers/:id',
    handler: async (ctx) => {
      const body = validated(validateUpdate, objectBody(ctx));
      const principal = await authorizeWrite(ctx, 'update', deps.services);
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      const next = await updatedRow(current, body, principal, deps);
      const changed = credentialChanges(current, body, next);
      if (changed !== undefined) await authorizeCredentials(principal, deps.services, changed);
      return json(200, toJson(await save(deps, current, next)));
    },
  });

  routes.add({
    method: 'DELETE', path: '/v1/mcp-servers/:id',
    handler: async (ctx) => {
      const principal = await authorizeWrite(ctx, 'delete', deps.services);
      const current = visible(ctx, principal);
      requireOwnWorkspace(principal, current);
      await repo.delete(current.id);
      catalogue.remove(current.id);
      return json(200, { id: current.id, object: 'mcp-server', deleted: true });
    },
  });
}

function save(deps: RouteDeps, current: McpServer, row: McpServerRow): Promise<McpServer> {
  return saveRecord(writerOf(deps), current, row);
}

function writerOf(deps: RouteDeps): RecordWriter<McpServer, McpServerRow> {
  return { catalogue: deps.catalogue, insert: (row) => deps.repo.insert(row), update: (row) => deps.repo.update(row), fromRow, kind: 'MCP server' };
}
