/**
 * POST /v1/agents/:id: A2A JSON-RPC to the agent, on its behalf. The caller needs `agents.invoke`
 * and a server it may use (404 otherwise); the request goes to the agent's JSON-RPC endpoint of the
 * caller's protocol version (from its card) with the agent's own credential and the A2A headers,
 * never the caller's gateway credentials. Streams are relayed chunk by chunk as they arrive.
 * The route is the endpoint `a2a`: request logs, metrics and limits (`endpoint_type`) see it,
 * with the agent's slug as provider and the JSON-RPC method as model.
 *
 * Tasks belong to their caller (task-owners.ts): a call naming a task that is not the caller's own
 * (another caller's, or one the gateway never relayed) answers TaskNotFoundError without reaching
 * the agent, as if the task did not exist; every answer relayed records the tasks it names.
 */
import {
  CallSubjectKey, Errors, json, requireScope, SSE_HEADERS,
  type EndpointDef, type GatewayResponse, type Kernel, type RequestContext, type Router, type Transport,
} from '../../../core/index.js';
import { INVOKE_SCOPE } from './access.js';
import type { UpstreamAuth } from './auth.js';
import { jsonRpcInterfaces, pickInterface } from './card-shape.js';
import type { AgentCards } from './cards.js';
import type { AgentServerCatalogue } from './catalogue.js';
import { INTERNAL_ERROR, METHOD_NOT_FOUND, methodKind } from './methods.js';
import type { AgentServer } from './record.js';
import { visibleServer } from './routes.js';
import { SseEvents } from './sse-events.js';
import { callerOf } from './task-caller.js';
import type { TaskOwners } from './task-owners.js';
import { refusalAnswer, type JsonRpcId } from './task-refusal.js';
import { answerNames, requestNames, type Named } from './task-refs.js';
import { callAgent, mediaType, readLimited } from './upstream.js';
import { extensionHeaders, requestedVersion } from './versions.js';

export const A2A_ENDPOINT: EndpointDef = Object.freeze({ id: 'a2a', validate: () => [], streamable: true });

export interface ProxyDeps {
  catalogue: AgentServerCatalogue;
  cards: AgentCards;
  auth: UpstreamAuth;
  transport: Transport;
  /** Runs the limits (preRoute) the way inference requests pass them. */
  kernel: () => Kernel;
  owners: TaskOwners;
  timeoutMs: number;
  maxResponseBytes: number;
}

interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  id: JsonRpcId;
  params?: unknown;
}

export function registerProxyRoute(routes: Router, deps: ProxyDeps): void {
  routes.add({
    method: 'POST', path: '/v1/agents/:id', body: 'json', endpoint: A2A_ENDPOINT,
    handler: async (ctx) => {
      const principal = requireScope(ctx, INVOKE_SCOPE);
      const server = visibleServer(ctx, principal, deps);
      const call = jsonRpcRequest(ctx.request.body);
      ctx.body = call as unknown as Record<string, unknown>;
      ctx.values.set(CallSubjectKey, { provider: server.slug, model: call.method });
      const version = requestedVersion(ctx.request);
      const extensions = extensionHeaders(ctx.request);
      const kind = methodKind(call.method);
      ctx.stream = kind === 'stream';

      // Rate and usage limits, as inference requests pass them: every call counts, known method or not.
      const early = await deps.kernel().preRoute(ctx);
      if (early) return early;
      if (!kind) return rpcError(call.id, METHOD_NOT_FOUND, `method "${call.method}" is not available through the gateway`);
      const caller = callerOf(principal);
      const { refused, mine } = await deps.owners.check(server.id, requestNames(call.method, call.params), caller);
      if (refused) return refusalAnswer(call.id, call.method, refused);
      const owned: Owned = { owners: deps.owners, serverId: server.id, caller, mine };

      const target = pickInterface(jsonRpcInterfaces(await deps.cards.get(server, version), deps.cards.cardUrl(server)), version);
      if (!target) throw Errors.badGateway(`agent server "${server.slug}" offers no JSON-RPC interface`, server.slug);
      const headers: Record<string, string> = {
        ...deps.auth.headers(server),
        ...extensions,
        'content-type': 'application/json',
        accept: kind === 'stream' ? 'text/event-stream' : 'application/json',
      };
      if (version !== undefined) headers['a2a-version'] = version;
      const body = ctx.request.rawBody ?? JSON.stringify(call);
      const { reply, settle } = await callAgent(deps.transport, { url: target.url, method: 'POST', headers, body }, ctx.request.signal, deps.timeoutMs, server.slug);

      if (reply.status >= 200 && reply.status < 300 && mediaType(reply.headers) === 'text/event-stream') {
        settle();
        return { status: 200, headers: { ...SSE_HEADERS }, stream: relay(reply.body, call.id, server, ctx, owned) };
      }
      try {
        const bytes = await readLimited(reply, deps.maxResponseBytes, server.slug);
        const answer = jsonRpcResponse(bytes);
        if (!answer) {
          throw Errors.badGateway(
            `agent server "${server.slug}" answered HTTP ${reply.status} (${mediaType(reply.headers) || 'no content-type'}) instead of a JSON-RPC response`,
            server.slug,
          );
        }
        await recordNamed(owned, answerNames(answer['result']));
        return { status: reply.status, headers: { 'content-type': 'application/json' }, raw: bytes };
      } finally {
        settle();
      }
    },
  });
}

/** The body as one JSON-RPC request; a 400 naming the field otherwise. */
function jsonRpcRequest(body: unknown): JsonRpcRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw Errors.invalidBody('', 'must be one JSON-RPC 2.0 request object (batches are not supported)');
  }
  const b = body as Record<string, unknown>;
  if (b['jsonrpc'] !== '2.0') throw Errors.invalidBody('jsonrpc', 'must be "2.0"');
  if (typeof b['method'] !== 'string' || b['method'] === '') throw Errors.invalidBody('method', 'must be a non-empty string');
  const id = b['id'];
  if (id !== null && typeof id !== 'string' && typeof id !== 'number') throw Errors.invalidBody('id', 'must be a string or a number');
  if (b['params'] !== undefined && (b['params'] === null || typeof b['params'] !== 'object')) throw Errors.invalidBody('params', 'must be an object');
  return b as unknown as JsonRpcRequest;
}

function rpcError(id: JsonRpcId, code: number, message: string): GatewayResponse {
  return json(200, { jsonrpc: '2.0', id, error: { code, message } });
}

/** The body as a JSON-RPC response object, or undefined when it is not one. */
function jsonRpcResponse(bytes: Buffer): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  return v['jsonrpc'] === '2.0' && ('result' in v || 'error' in v) ? v : undefined;
}

interface Owned {
  owners: TaskOwners;
  serverId: string;
  caller: string;
  /** What the call's check found to be the caller's already. */
  mine: ReadonlySet<string>;
}

function recordNamed(owned: Owned, named: Named): Promise<void> {
  if (named.tasks.length === 0 && named.contexts.length === 0) return Promise.resolve();
  return owned.owners.record(owned.serverId, named, owned.caller, owned.mine);
}

const encoder = new TextEncoder();

/** The `result` of one event's JSON-RPC response; undefined for anything else. */
function resultOf(data: string): unknown {
  try {
    const value = JSON.parse(data) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['result'] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The agent's event stream as it comes. The tasks an event names are recorded before the chunk that
 * completes it is passed on, so a client that reads a task id can use it at once. When the agent
 * breaks the stream off, the client gets one JSON-RPC error event (after a blank line that ends any
 * half-sent event) and the request is logged as failed.
 */
async function* relay(
  body: AsyncIterable<Uint8Array>, id: JsonRpcId, server: AgentServer, ctx: RequestContext, owned: Owned,
): AsyncGenerator<Uint8Array> {
  const events = new SseEvents();
  const seen = new Set<string>();
  try {
    for await (const chunk of body) {
      const named: Named = { tasks: [], contexts: [] };
      for (const data of events.push(chunk)) answerNames(resultOf(data), named);
      // Each id once per stream: its owner does not change while the stream runs.
      named.tasks = named.tasks.filter((t) => !seen.has(`t:${t}`) && seen.add(`t:${t}`));
      named.contexts = named.contexts.filter((c) => !seen.has(`c:${c}`) && seen.add(`c:${c}`));
      await recordNamed(owned, named);
      yield chunk;
    }
  } catch (e) {
    if (ctx.request.signal.aborted) return;
    const error = Errors.badGateway(`agent server "${server.slug}" broke off its stream: ${(e as Error).message}`, server.slug);
    ctx.streamError = error;
    yield encoder.encode(`\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: error.message } })}\n\n`);
  }
}
