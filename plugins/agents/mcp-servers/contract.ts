/**
 * The registered MCP servers as the MCP gateway (agents.mcp-gateway) uses them: import this file
 * (the key, or the types) and nothing else of agents.mcp-servers. Answered from memory; upstream
 * secrets never leave the registry except as the headers of one upstream call.
 */
import { serviceKey, type Principal } from '../../../core/index.js';

export type McpAuthType = 'none' | 'bearer' | 'headers' | 'oauth2_client_credentials' | 'user_bearer';

/** A registered server without its secrets. */
export interface McpServerInfo {
  id: string;
  slug: string;
  name: string;
  /** The upstream Streamable HTTP endpoint. */
  url: string;
  organisationId: string;
  /** The owning workspace; null for an organisation-level server. */
  workspaceId: string | null;
  allowAllWorkspaces: boolean;
  allowedWorkspaces: readonly string[];
  /** When set, only these tools are listed and callable. */
  allowedTools: readonly string[] | null;
  /** Never listed nor callable (wins over allowedTools). */
  deniedTools: readonly string[];
  /** `user_bearer`: each caller brings its own upstream token, kept on its connection. */
  authType: McpAuthType;
  /** Changes on every update: cached upstream state (tokens, sessions) of an older revision is stale. */
  revision: number;
}

export interface McpServers {
  /**
   * By id or slug, as `principal` may use it (its organisation; its workspace the server's own or
   * allowed); undefined otherwise, so a server the caller may not use answers like a missing one.
   */
  find(ref: string, principal: Principal): McpServerInfo | undefined;
  /** By id, whoever asks (connections listed by an admin). */
  byId(id: string): McpServerInfo | undefined;
  /**
   * The headers that authenticate the gateway to the upstream server: the stored bearer token or
   * headers, an OAuth2 client-credentials access token (fetched through the transport, cached until
   * shortly before it expires), with secret mappings resolved for the caller's workspace. For
   * `user_bearer` servers it answers {} (the gateway adds the connection's own token). Throws a
   * GatewayError naming the server (and the secret reference), never a secret.
   */
  upstreamHeaders(server: McpServerInfo, principal: Principal, signal: AbortSignal): Promise<Record<string, string>>;
  /** Drops a cached OAuth2 token of the server (after the upstream answered 401 with it). */
  forgetToken(serverId: string): void;
}

export const McpServersService = serviceKey<McpServers>('mcp-servers');
