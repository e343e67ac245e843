/**
 * The McpServers service the MCP gateway uses (contract.ts): servers found from memory, as a caller
 * may use them, and the headers that authenticate the gateway to one upstream.
 */
import { Errors, type Principal } from '../../../core/index.js';
import { canSee } from './access.js';
import { FIELD_VALUE } from './auth-rules.js';
import type { McpServerCatalogue } from './catalogue.js';
import type { McpServerInfo, McpServers } from './contract.js';
import type { McpServer } from './record.js';
import { serverUnusable, type ServerSecrets } from './secrets.js';
import type { ClientCredentialTokens } from './tokens.js';

export function createService(catalogue: McpServerCatalogue, secrets: ServerSecrets, tokens: ClientCredentialTokens): McpServers {
  const infos = new WeakMap<McpServer, McpServerInfo>();
  const info = (s: McpServer): McpServerInfo => {
    let known = infos.get(s);
    if (!known) {
      known = Object.freeze({
        id: s.id, slug: s.slug, name: s.name, url: s.url, organisationId: s.organisationId, workspaceId: s.workspaceId ?? null,
        allowAllWorkspaces: s.allowAllWorkspaces, allowedWorkspaces: s.allowedWorkspaces, allowedTools: s.allowedTools,
        deniedTools: s.deniedTools, authType: s.auth.type, revision: s.revision,
      });
      infos.set(s, known);
    }
    return known;
  };

  async function upstreamHeaders(given: McpServerInfo, principal: Principal, signal: AbortSignal): Promise<Record<string, string>> {
    const server = catalogue.byId(given.id);
    if (!server) throw Errors.notFound(`MCP server "${given.slug}" no longer exists`, 'mcp_server_not_found');
    const type = server.auth.type;
    if (type === 'none' || type === 'user_bearer') return {};
    const secret = await secrets.of(server, principal.workspaceId);
    switch (type) {
      case 'bearer':
        return { authorization: `Bearer ${headerValue(server, secret.token, 'auth.token')}` };
      case 'headers': {
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(secret.headers ?? {})) out[name] = headerValue(server, value, `auth.headers.${name}`);
        return out;
      }
      case 'oauth2_client_credentials': {
        const clientSecret = secret.client_secret;
        if (clientSecret === undefined) throw serverUnusable(server, 'auth.client_secret is not set');
        return { authorization: `Bearer ${await tokens.token(server, clientSecret, signal)}` };
      }
    }
  }

  return Object.freeze({
    find(ref: string, principal: Principal) {
      const server = catalogue.find(principal.organisationId ?? 'default', ref);
      return server && canSee(principal, server) ? info(server) : undefined;
    },
    byId(id: string) {
      const server = catalogue.byId(id);
      return server && info(server);
    },
    upstreamHeaders,
    forgetToken(serverId: string) {
      tokens.forget(serverId);
    },
  });
}

/** A secret as a header value: present, and (a mapped secret is not checked at write) free of CR, LF and NUL. */
function headerValue(server: McpServer, value: string | undefined, field: string): string {
  if (value === undefined || value === '') throw serverUnusable(server, `${field} is not set`);
  if (!FIELD_VALUE.test(value)) throw serverUnusable(server, `the value of ${field} holds characters a header cannot carry`);
  return value;
}
