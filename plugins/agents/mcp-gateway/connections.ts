/**
 * `GET` and `DELETE /v1/mcp-servers/:id/connections`: callers' connections with one server.
 * Organisation owners and admins (and organisation-level service keys) reach every connection,
 * workspace admins and managers those made in their workspace, everyone else only their own.
 * `?user_id=` (or `?api_key_id=`) names whose; naming another's without the reach is a 403.
 * DELETE ends the connection's sessions upstream too and forgets its upstream token: the old
 * session ids answer 404, so the client initialises again.
 */
import {
  Errors, isOrganisationAdmin, isOrganisationLevel, json, listPage, pageOf, principalOf, roleAtLeast, workspaceRoleOf,
  type Principal, type RequestContext, type RouteDef,
} from '../../../core/index.js';
import type { McpServerInfo, McpServers } from '../mcp-servers/contract.js';
import type { ConnectionFilter, ConnectionRow, ListedConnection, McpRepo, SessionRow } from './repo.js';
import type { Sessions } from './sessions.js';
import type { Upstream } from './upstream.js';

export interface ConnectionRouteDeps {
  servers(): McpServers;
  repo: McpRepo;
  sessions: Sessions;
  upstream: Upstream;
}

export function connectionRoutes(deps: ConnectionRouteDeps): RouteDef[] {
  const path = '/v1/mcp-servers/:id/connections';
  return [
    {
      method: 'GET', path, body: 'none',
      handler: async (ctx) => {
        const { server, filter } = scoped(ctx, deps);
        const page = pageOf(ctx);
        const [total, rows] = await Promise.all([deps.repo.count(filter), deps.repo.list(filter, page.page * page.size, page.size)]);
        return json(200, listPage(page, total, rows.map((r) => view(r, server))));
      },
    },
    {
      method: 'DELETE', path, body: 'none',
      handler: async (ctx) => {
        const { server, filter, principal } = scoped(ctx, deps);
        const { connections, sessions } = await deps.repo.deleteConnections(filter);
        if (connections.length === 0) throw Errors.notFound(`no connection with MCP server ${server.slug} matches`, 'connection_not_found');
        await endUpstream(deps, server, principal, connections, sessions, ctx.request.signal);
        return json(200, { object: 'mcp_connections.deleted', server_id: server.id, deleted_connections: connections.length, ended_sessions: sessions.length });
      },
    },
  ];
}

/** The server (404 when the caller may not see it) and the connections the caller's request reaches. */
function scoped(ctx: RequestContext, deps: ConnectionRouteDeps): { server: McpServerInfo; filter: ConnectionFilter; principal: Principal } {
  const principal = principalOf(ctx);
  const ref = ctx.params['id'] ?? '';
  const servers = deps.servers();
  let server = servers.find(ref, principal);
  // An organisation admin manages connections of every server of the organisation.
  if (!server && isOrganisationAdmin(principal)) {
    const found = servers.byId(ref);
    if (found && found.organisationId === (principal.organisationId ?? found.organisationId)) server = found;
  }
  if (!server) throw Errors.notFound(`no MCP server "${ref}"`, 'mcp_server_not_found');
  const query = ctx.request.query;
  const userId = nonBlank(query.get('user_id'), 'user_id');
  const apiKeyId = nonBlank(query.get('api_key_id'), 'api_key_id');
  const base = { serverId: server.id, organisationId: server.organisationId };
  const reach = reachOf(principal);
  if (reach === 'organisation') return { server, principal, filter: { ...base, userId, apiKeyId } };
  if (reach === 'workspace') return { server, principal, filter: { ...base, userId, apiKeyId, workspaceIds: [principal.workspaceId!] } };
  // Everyone else: their own connection only.
  const own = principal.userId ? { userId: principal.userId } : { apiKeyId: principal.keyId };
  if ((userId !== undefined && userId !== own.userId) || (apiKeyId !== undefined && apiKeyId !== own.apiKeyId)) {
    throw Errors.forbidden('only organisation admins and workspace admins or managers act on other users\' MCP connections');
  }
  return { server, principal, filter: { ...base, ...own } };
}

function reachOf(principal: Principal): 'organisation' | 'workspace' | 'own' {
  if (isOrganisationAdmin(principal) || (isOrganisationLevel(principal) && principal.type !== 'workspace-user')) return 'organisation';
  const workspace = principal.workspaceId;
  if (workspace !== undefined && roleAtLeast(workspaceRoleOf(principal, workspace), 'manager')) return 'workspace';
  return 'own';
}

function nonBlank(value: string | null, name: string): string | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') throw Errors.invalidRequest(`query.${name}: must not be empty`, name, 'invalid_query');
  return trimmed;
}

/** A connection as listed: never its token, only whether it has one. */
function view(r: ListedConnection, server: McpServerInfo): Record<string, unknown> {
  return {
    object: 'mcp_connection', id: r.id, server_id: r.server_id, server_slug: server.slug, organisation_id: r.organisation_id,
    workspace_id: r.workspace_id, user_id: r.user_id, api_key_id: r.api_key_id, created_at: r.created_at, last_used_at: r.last_used_at,
    sessions: Number(r.sessions), has_upstream_credential: r.credential !== null,
  };
}

/** Ends the deleted sessions upstream (best effort: an upstream that is down expires them itself). */
async function endUpstream(
  deps: ConnectionRouteDeps, server: McpServerInfo, principal: Principal, connections: ConnectionRow[], sessions: SessionRow[], signal: AbortSignal,
): Promise<void> {
  const byId = new Map(connections.map((c) => [c.id, c]));
  await Promise.allSettled(sessions.filter((s) => s.upstream_session_id).map(async (s) => {
    const connection = byId.get(s.connection_id);
    const userToken = server.authType === 'user_bearer' && connection ? deps.sessions.tokenOf(connection) : undefined;
    if (server.authType === 'user_bearer' && !userToken) return;
    const reply = await deps.upstream.send({ server, principal, method: 'DELETE', session: s.upstream_session_id, userToken, signal });
    await reply.dump();
  }));
}
