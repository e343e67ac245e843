/**
 * The agent-server routes:
 *   POST   /v1/agent-servers        create                       agent_servers.create
 *   GET    /v1/agent-servers        list (workspace_id; paging)  agent_servers.list
 *   GET    /v1/agent-servers/:id    one (id or slug)             agent_servers.read
 *   PUT    /v1/agent-servers/:id    update (PATCH: the same)     agent_servers.update
 *   DELETE /v1/agent-servers/:id    delete                       agent_servers.delete
 * The auth secret is sealed before it is written and never answered.
 */
import { randomUUID } from 'node:crypto';
import { Errors, insertRecord, json, nowIso, saveRecord, type RecordWriter, objectBody, pageOf, paginate, validated, type Principal, type RequestContext, type RouteDef, type Router } from '../../../core/index.js';
import { allowedIn, canSee, organisationOf, requireAction, requireOwned } from './access.js';
import { sealAuth } from './auth.js';
import { fromRow, toJson, type AgentServer, type AgentServerRow } from './record.js';
import type { AgentServerRepo } from './repo.js';
import { baseUrl, checkSlug, placement, updatedRow, type RowDeps } from './rows.js';
import { validateCreate, validateUpdate } from './schemas.js';

export interface RouteDeps extends RowDeps {
  repo: AgentServerRepo;
  /** Called when a server changes or goes: what is cached about it (its card) is stale. */
  forget(server: AgentServer): void;
}

/** The server named by the path as the caller may see it; 404 otherwise (also for one it may not see). */
export function visibleServer(ctx: RequestContext, principal: Principal, deps: Pick<RowDeps, 'catalogue'>): AgentServer {
  const ref = ctx.params['id']!;
  const server = deps.catalogue.find(organisationOf(principal), ref);
  if (!server || !canSee(principal, server)) throw Errors.notFound(`no agent server "${ref}"`, 'agent_server_not_found');
  return server;
}

export function registerRoutes(routes: Router, deps: RouteDeps): void {
  const { repo, catalogue } = deps;

  routes.add({
    method: 'POST', path: '/v1/agent-servers',
    handler: async (ctx) => {
      const body = validated(validateCreate, objectBody(ctx));
      const principal = requireAction(ctx, 'create');
      const org = organisationOf(principal);
      const url = baseUrl(body.url);
      checkSlug(catalogue, org, body.slug);
      const id = randomUUID();
      const now = nowIso();
      const row: AgentServerRow = {
        id, organisation_id: org, slug: body.slug, name: body.name, description: body.description ?? null, url,
        ...sealAuth(deps.box, id, body.auth ?? { type: 'none' }),
        ...await placement(principal, body, deps),
        revision: 1, created_at: now, last_updated_at: now,
      };
      const server = await insertRecord(writerOf(deps), row);
      return json(200, toJson(server));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/agent-servers',
    handler: async (ctx) => {
      const principal = requireAction(ctx, 'list');
      const page = pageOf(ctx);
      const workspace = ctx.request.query.get('workspace_id');
      const items = catalogue.list(organisationOf(principal))
        .filter((s) => canSee(principal, s) && (workspace === null || allowedIn(s, workspace)));
      return json(200, paginate(items.map(toJson), page));
    },
  });

  routes.add({
    method: 'GET', path: '/v1/agent-servers/:id',
    handler: async (ctx) => json(200, toJson(visibleServer(ctx, requireAction(ctx, 'read'), deps))),
  });

  const update: RouteDef['handler'] = async (ctx) => {
    const body = validated(validateUpdate, objectBody(ctx));
    const principal = requireAction(ctx, 'update');
    const current = visibleServer(ctx, principal, deps);
    requireOwned(principal, current);
    const row = await updatedRow(current, body, principal, deps);
    return json(200, toJson(await save(deps, current, row)));
  };
  routes.add({ method: 'PUT', path: '/v1/agent-servers/:id', handler: update });
  routes.add({ method: 'PATCH', path: '/v1/agent-servers/:id', handler: update });

  routes.add({
    method: 'DELETE', path: '/v1/agent-servers/:id',
    handler: async (ctx) => {
      const principal = requireAction(ctx, 'delete');
      const current = visibleServer(ctx, principal, deps);
      requireOwned(principal, current);
      await repo.delete(current.id);
      catalogue.remove(current.id);
      deps.forget(current);
      return json(200, { id: current.id, object: 'agent_server', deleted: true });
    },
  });
}

async function save(deps: RouteDeps, current: AgentServer, row: AgentServerRow): Promise<AgentServer> {
  const saved = await saveRecord(writerOf(deps), current, row);
  deps.forget(current);
  return saved;
}

function writerOf(deps: RouteDeps): RecordWriter<AgentServer, AgentServerRow> {
  return { catalogue: deps.catalogue, insert: (row) => deps.repo.insert(row), update: (row) => deps.repo.update(row), fromRow, kind: 'agent server' };
}
