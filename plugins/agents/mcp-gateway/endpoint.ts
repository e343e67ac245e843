/**
 * `/v1/mcp/:server`: a Streamable HTTP MCP endpoint in front of a registered server.
 *
 *   POST    JSON-RPC from the client. `initialize` opens a session: the gateway mints its own
 *           Mcp-Session-Id and keeps the upstream's behind it. Other messages need a live session
 *           (400 without the header, 404 for an unknown or ended one, so clients initialise again).
 *           tools/list answers are filtered; a tools/call of a tool the server does not allow, or
 *           whose arguments a guardrail denies, is answered with a JSON-RPC error without calling
 *           upstream; tool results pass the output guardrails. Rate and usage limits run on tool calls.
 *   GET     the server's own stream (a 405 from upstream passes through).
 *   DELETE  ends the session, upstream too.
 *
 * The answer is relayed as the upstream gave it, JSON or SSE (relay.ts).
 */
import {
  CallSubjectKey, principalOf,
  type ConfigNode, type GatewayResponse, type Kernel, type Principal, type RequestContext, type UpstreamReply,
} from '../../../core/index.js';
import type { McpServerInfo, McpServers } from '../mcp-servers/contract.js';
import { argumentsContent, guardsTools, MCP_ENDPOINT, type ToolGuard } from './guard.js';
import {
  isRequest, paramsOf, parseClientBody, RpcCode, rpcError, rpcFailure, RpcFailure, rpcJson,
  type ClientBody, type JsonRpcId, type Message,
} from './jsonrpc.js';
import { relay, type AnswerRewrite } from './relay.js';
import type { LiveSession, Sessions } from './sessions.js';
import { filteredToolList, filtersTools, toolAllowed } from './tools.js';
import type { Upstream } from './upstream.js';

export const SESSION_HEADER = 'mcp-session-id';
export const VERSION_HEADER = 'mcp-protocol-version';
export const UPSTREAM_TOKEN_HEADER = 'x-gw-mcp-upstream-token';

export interface EndpointDeps {
  servers(): McpServers;
  sessions: Sessions;
  upstream: Upstream;
  guard: ToolGuard;
  kernel: Kernel;
  /** Protocol versions spoken, oldest first; a client asking for another is offered the newest. */
  versions: readonly string[];
  maxBodyBytes: number;
  maxJsonBytes: number;
}

export function mcpHandler(deps: EndpointDeps): (ctx: RequestContext) => Promise<GatewayResponse> {
  return async (ctx) => {
    try {
      const principal = principalOf(ctx);
      const ref = ctx.params['server'] ?? '';
      const server = deps.servers().find(ref, principal);
      // One answer for missing and forbidden: the caller learns nothing about other servers.
      if (!server) throw rpcFailure(404, RpcCode.INVALID_REQUEST, `no MCP server "${ref}"`, 'server', 'mcp_server_not_found');
      ctx.values.set(CallSubjectKey, { provider: server.slug });
      const version = versionOf(ctx, deps.versions);
      const call = { ctx, server, principal, version, deps };
      if (ctx.request.method === 'POST') return await post(call);
      if (ctx.request.method === 'GET') return await openStream(call);
      return await endSession(call);
    } catch (e) {
      if (e instanceof RpcFailure) {
        ctx.reason ??= e.code ?? undefined;
        return e.response();
      }
      throw e;
    }
  };
}

interface Call {
  ctx: RequestContext;
  server: McpServerInfo;
  principal: Principal;
  /** The client's MCP-Protocol-Version, when it sent one. */
  version: string | undefined;
  deps: EndpointDeps;
}

function versionOf(ctx: RequestContext, versions: readonly string[]): string | undefined {
  const given = ctx.request.headers[VERSION_HEADER]?.trim();
  if (given === undefined || given === '') return undefined;
  if (!versions.includes(given)) {
    throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Bad Request: ${VERSION_HEADER} "${given.slice(0, 40)}" is not supported (supported: ${versions.join(', ')})`, VERSION_HEADER, 'invalid_header');
  }
  return given;
}

async function post(call: Call): Promise<GatewayResponse> {
  const { ctx, deps } = call;
  const bytes = ctx.request.rawBody;
  if (bytes !== undefined && bytes.byteLength > deps.maxBodyBytes) {
    throw rpcFailure(413, RpcCode.INVALID_REQUEST, `body exceeds the limit of ${deps.maxBodyBytes} bytes`, 'body', 'payload_too_large');
  }
  const body = parseClientBody(bytes);
  const init = body.messages.find((m) => m['method'] === 'initialize');
  if (init) {
    if (body.messages.length > 1 || !isRequest(init)) {
      throw rpcFailure(400, RpcCode.INVALID_REQUEST, 'Invalid Request: initialize must be a request sent alone, not in a batch', 'body');
    }
    return initialize(call, init);
  }
  const live = await liveSession(call);
  return forward(call, live, body);
}

async function initialize(call: Call, init: Message): Promise<GatewayResponse> {
  const { ctx, server, principal, deps } = call;
  const connection = await deps.sessions.connect(server, principal);
  let userToken: string | undefined;
  if (server.authType === 'user_bearer') {
    const given = ctx.request.headers[UPSTREAM_TOKEN_HEADER]?.trim();
    userToken = given || deps.sessions.tokenOf(connection);
    if (!userToken) {
      throw rpcFailure(401, RpcCode.UNAUTHORIZED,
        `MCP server ${server.slug} authenticates each user: send your own token for it once, as the header ${UPSTREAM_TOKEN_HEADER} on initialize`,
        UPSTREAM_TOKEN_HEADER, 'mcp_upstream_token_missing');
    }
  }
  const params = paramsOf(init);
  const requested = params['protocolVersion'];
  const offered = typeof requested === 'string' && deps.versions.includes(requested) ? requested : deps.versions[deps.versions.length - 1]!;
  const message = offered === requested ? init : { ...init, params: { ...params, protocolVersion: offered } };
  const reply = await deps.upstream.send({ server, principal, method: 'POST', userToken, body: JSON.stringify(message), signal: ctx.request.signal });
  if (reply.status >= 400) return refused(reply, call, undefined);
  // Kept once the server took it: a token it refused is not stored.
  if (server.authType === 'user_bearer' && userToken !== deps.sessions.tokenOf(connection)) await deps.sessions.keepToken(connection, userToken!);
  const sessionId = await deps.sessions.start(connection, server, reply.headers[SESSION_HEADER] ?? null, offered);
  const id = init['id'] as JsonRpcId;
  const checkVersion: AnswerRewrite = (answer) => {
    const version = (answer['result'] as Message)?.['protocolVersion'];
    if (typeof version === 'string' && deps.versions.includes(version)) return answer;
    return rpcError(id, RpcCode.INTERNAL_ERROR, `MCP server ${server.slug} chose protocol version ${JSON.stringify(version)}, which the gateway does not speak (${deps.versions.join(', ')})`);
  };
  return relay(reply, {
    rewrites: new Map([[id, checkVersion]]), refusals: [], batch: false, maxJsonBytes: deps.maxJsonBytes, serverSlug: server.slug,
    headers: { [SESSION_HEADER]: sessionId },
  });
}

/** Messages of a live session: checked, refused or forwarded, and the upstream's answer relayed. */
async function forward(call: Call, live: LiveSession, body: ClientBody): Promise<GatewayResponse> {
  const { ctx, server, deps } = call;
  const toolCalls = body.messages.filter((m) => m['method'] === 'tools/call' && isRequest(m));
  let config: ConfigNode | undefined;
  if (toolCalls.length > 0) {
    const first = paramsOf(toolCalls[0]!)['name'];
    ctx.values.set(CallSubjectKey, { provider: server.slug, model: typeof first === 'string' ? first : '' });
    // Rate and usage limits select these requests with endpoint_type "mcp".
    const early = await deps.kernel.preRoute(ctx);
    if (early) return early;
    // Guardrails come from the request's config, when it names one.
    if (ctx.request.headers['x-gw-config'] !== undefined) config = await deps.kernel.resolveConfig(ctx);
  }

  const rewrites = new Map<JsonRpcId, AnswerRewrite>();
  const refusals: Message[] = [];
  const forwarded: Message[] = [];
  for (const m of body.messages) {
    if (!isRequest(m)) {
      forwarded.push(m);
      continue;
    }
    const id = m['id'] as JsonRpcId;
    if (m['method'] === 'tools/list' && filtersTools(server)) {
      rewrites.set(id, (answer) => ({ ...answer, result: filteredToolList(server, answer['result'] as Message) }));
    } else if (m['method'] === 'tools/call') {
      const refusal = await checkToolCall(call, m, id, config, rewrites);
      if (refusal) {
        refusals.push(refusal);
        continue;
      }
    }
    forwarded.push(m);
  }

  const headers = { [SESSION_HEADER]: live.session.id };
  if (forwarded.length === 0) return rpcJson(200, body.batch ? refusals : refusals[0], headers);
  const reply = await deps.upstream.send({
    server, principal: call.principal, method: 'POST', session: live.session.upstream_session_id, protocolVersion: call.version,
    userToken: userTokenOf(call, live), body: JSON.stringify(body.batch ? forwarded : forwarded[0]), signal: ctx.request.signal,
  });
  if (reply.status >= 400) return refused(reply, call, live);
  return relay(reply, { rewrites, refusals, batch: body.batch, maxJsonBytes: deps.maxJsonBytes, serverSlug: server.slug, headers });
}

/** A tools/call's refusal (tool not allowed, arguments denied), or undefined after arranging the check of its result. */
async function checkToolCall(call: Call, m: Message, id: JsonRpcId, config: ConfigNode | undefined, rewrites: Map<JsonRpcId, AnswerRewrite>): Promise<Message | undefined> {
  const { ctx, server, deps } = call;
  const params = paramsOf(m);
  const tool = params['name'];
  if (typeof tool !== 'string' || tool === '') {
    return rpcError(id, RpcCode.INVALID_PARAMS, 'params.name: must be the name of a tool (a non-empty string)');
  }
  if (!toolAllowed(server, tool)) {
    ctx.reason = 'mcp_tool_not_allowed';
    return rpcError(id, RpcCode.INVALID_PARAMS, `tool "${tool}" is not allowed on MCP server ${server.slug}`);
  }
  if (!guardsTools(config)) return undefined;
  const guarded = { config, endpoint: MCP_ENDPOINT, provider: server.slug, model: tool, request: argumentsContent(tool, params['arguments']) };
  const denied = await deps.guard.arguments(id, guarded, ctx);
  if (denied) {
    ctx.reason = 'mcp_guardrail_denied';
    return denied;
  }
  rewrites.set(id, async (answer) => {
    const checked = await deps.guard.result(answer, guarded, ctx);
    if (checked !== answer) ctx.reason = 'mcp_guardrail_denied';
    return checked;
  });
  return undefined;
}

async function openStream(call: Call): Promise<GatewayResponse> {
  const { ctx, server, deps } = call;
  const live = await liveSession(call);
  const reply = await deps.upstream.send({
    server, principal: call.principal, method: 'GET', session: live.session.upstream_session_id, protocolVersion: call.version,
    lastEventId: ctx.request.headers['last-event-id'], userToken: userTokenOf(call, live), signal: ctx.request.signal,
  });
  if (reply.status === 405) {
    await reply.dump();
    return { status: 405, headers: { allow: reply.headers['allow'] ?? 'POST, DELETE', [SESSION_HEADER]: live.session.id }, raw: '' };
  }
  if (reply.status >= 400) return refused(reply, call, live);
  return relay(reply, {
    rewrites: new Map(), refusals: [], batch: false, maxJsonBytes: deps.maxJsonBytes, serverSlug: server.slug,
    headers: { [SESSION_HEADER]: live.session.id },
  });
}

async function endSession(call: Call): Promise<GatewayResponse> {
  const { ctx, server, deps } = call;
  const live = await liveSession(call);
  await deps.sessions.end(live.session.id);
  if (live.session.upstream_session_id) {
    try {
      const reply = await deps.upstream.send({
        server, principal: call.principal, method: 'DELETE', session: live.session.upstream_session_id, protocolVersion: call.version,
        userToken: userTokenOf(call, live), signal: ctx.request.signal,
      });
      await reply.dump();
    } catch {
      // Ended here whatever the upstream says: its session expires on its own.
    }
  }
  return { status: 200, headers: {}, raw: '' };
}

async function liveSession(call: Call): Promise<LiveSession> {
  const id = call.ctx.request.headers[SESSION_HEADER]?.trim();
  if (!id) throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Bad Request: the ${SESSION_HEADER} header is required (initialize first)`, SESSION_HEADER, 'invalid_header');
  const live = await call.deps.sessions.find(id, call.server, call.principal);
  if (!live) throw rpcFailure(404, RpcCode.SESSION_NOT_FOUND, 'Session not found: it ended or never existed; initialize again', SESSION_HEADER, 'session_not_found');
  return live;
}

function userTokenOf(call: Call, live: LiveSession): string | undefined {
  return call.server.authType === 'user_bearer' ? call.deps.sessions.tokenOf(live.connection) : undefined;
}

/**
 * An upstream error status. 404 on a session: the upstream ended it, so the gateway does too (the
 * client initialises again). 401/403: the server refused our credential. Other 4xx pass through
 * (a JSON-RPC error body is the protocol's); 5xx become 502.
 */
async function refused(reply: UpstreamReply, call: Call, live: LiveSession | undefined): Promise<GatewayResponse> {
  const { server, deps } = call;
  const status = reply.status;
  if (status === 404 && live) {
    await reply.dump();
    await deps.sessions.end(live.session.id);
    throw rpcFailure(404, RpcCode.SESSION_NOT_FOUND, `Session not found: MCP server ${server.slug} ended it; initialize again`, SESSION_HEADER, 'session_not_found');
  }
  if (status === 401 || status === 403) {
    await reply.dump();
    if (server.authType === 'user_bearer') {
      throw rpcFailure(401, RpcCode.UNAUTHORIZED, `MCP server ${server.slug} refused your upstream token (${status}): send a valid one as ${UPSTREAM_TOKEN_HEADER} on initialize`, UPSTREAM_TOKEN_HEADER, 'mcp_upstream_unauthorized');
    }
    throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${server.slug} refused the gateway's credentials (${status})`, null, 'mcp_upstream_unauthorized', server.slug);
  }
  if (status >= 500) {
    await reply.dump();
    throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${server.slug} answered ${status}`, null, 'bad_gateway', server.slug);
  }
  const bytes = await readAtMost(reply, deps.maxJsonBytes, server.slug);
  const type = reply.headers['content-type'] ?? 'application/json';
  const headers: Record<string, string> = { 'content-type': type };
  if (live) headers[SESSION_HEADER] = live.session.id;
  return { status, headers, raw: bytes };
}

async function readAtMost(reply: UpstreamReply, max: number, slug: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of reply.body) {
    size += chunk.byteLength;
    if (size > max) throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${slug} answered an error with more than ${max} bytes`, null, 'bad_gateway', slug);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
