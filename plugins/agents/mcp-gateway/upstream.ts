/**
 * Requests to a registered server, through the shared transport (so the outbound host rules
 * apply), authenticated with the server's own credentials: the registry's headers, or for
 * `user_bearer` servers the connection's token. Nothing of the client's request is forwarded but
 * the MCP protocol headers. An OAuth2 server that answers 401 gets its token dropped and one retry.
 */
import {
  GatewayError,
  type Principal, type Transport, type UpstreamReply,
} from '../../../core/index.js';
import type { McpServerInfo, McpServers } from '../mcp-servers/contract.js';
import { RpcCode, rpcFailure } from './jsonrpc.js';

export interface UpstreamCall {
  readonly server: McpServerInfo;
  readonly principal: Principal;
  readonly method: 'POST' | 'GET' | 'DELETE';
  /** The upstream's session id, when it gave one. */
  readonly session?: string | null;
  readonly protocolVersion?: string;
  readonly lastEventId?: string;
  /** `user_bearer` servers: the caller's own upstream token. */
  readonly userToken?: string;
  readonly body?: string;
  readonly signal: AbortSignal;
}

export class Upstream {
  constructor(private readonly transport: Transport, private readonly servers: () => McpServers) {}

  async send(call: UpstreamCall): Promise<UpstreamReply> {
    const reply = await this.#once(call);
    if (reply.status !== 401 || call.server.authType !== 'oauth2_client_credentials') return reply;
    // The cached access token was revoked or expired early: fetch a new one, once.
    await reply.dump();
    this.servers().forgetToken(call.server.id);
    return this.#once(call);
  }

  async #once(call: UpstreamCall): Promise<UpstreamReply> {
    const { server, signal } = call;
    const headers: Record<string, string> = {};
    let auth: Record<string, string>;
    try {
      auth = await this.servers().upstreamHeaders(server, call.principal, signal);
    } catch (e) {
      if (signal.aborted) throw signal.reason ?? e;
      if (e instanceof GatewayError) throw rpcFailure(e.status, RpcCode.UPSTREAM_ERROR, e.message, e.param, e.code ?? 'mcp_upstream_auth', e.status >= 500 ? server.slug : undefined);
      throw e;
    }
    for (const name in auth) headers[name.toLowerCase()] = auth[name]!;
    if (call.userToken !== undefined) headers['authorization'] = `Bearer ${call.userToken}`;
    headers['accept'] = call.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream';
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.session) headers['mcp-session-id'] = call.session;
    if (call.protocolVersion) headers['mcp-protocol-version'] = call.protocolVersion;
    if (call.lastEventId) headers['last-event-id'] = call.lastEventId;
    try {
      return await this.transport.send({ url: server.url, method: call.method, headers, body: call.body }, signal);
    } catch (e) {
      if (signal.aborted) throw signal.reason ?? e;
      // The transport's own refusals (the outbound host policy) keep their status and message.
      if (e instanceof GatewayError) throw rpcFailure(e.status, RpcCode.UPSTREAM_ERROR, `MCP server ${server.slug}: ${e.message}`, null, e.code ?? 'bad_gateway', e.status >= 500 ? server.slug : undefined);
      throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${server.slug} is unreachable: ${networkReason(e)}`, null, 'bad_gateway', server.slug);
    }
  }
}

/** A network error's code (ECONNREFUSED ...), never its address details beyond that. */
function networkReason(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
  const code = err?.code ?? err?.cause?.code;
  if (typeof code === 'string') return code;
  return typeof err?.message === 'string' ? err.message.slice(0, 200) : 'network error';
}
