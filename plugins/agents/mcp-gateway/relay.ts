/**
 * Relays an upstream answer to the client, JSON or SSE, changing only the answers the gateway
 * must see: a `tools/list` result is filtered, a `tools/call` result passes the output guardrails.
 * Every other message (notifications, the server's own requests, other answers) passes unchanged;
 * an SSE stream is relayed event by event as it arrives (never read whole), ids kept for resuming.
 */
import type { GatewayResponse, UpstreamReply } from '../../../core/index.js';
import { RpcCode, rpcError, rpcFailure, rpcJson, type JsonRpcId, type Message } from './jsonrpc.js';
import { rewrittenEvent, sseEvents } from './sse-events.js';

/** What the gateway does to the answer of one request id. */
export type AnswerRewrite = (message: Message) => Promise<Message> | Message;

export interface RelayPlan {
  /** Answers to rewrite, by request id. */
  readonly rewrites: ReadonlyMap<JsonRpcId, AnswerRewrite>;
  /** Answers the gateway made itself (refused calls), sent along with the upstream's. */
  readonly refusals: readonly Message[];
  /** Whether the client sent a batch (a JSON answer is then an array). */
  readonly batch: boolean;
  /** Most bytes of a JSON answer read (it is parsed whole to be checked). */
  readonly maxJsonBytes: number;
  readonly serverSlug: string;
  /** Headers of the gateway's own on every answer (Mcp-Session-Id). */
  readonly headers: Record<string, string>;
}

const encoder = new TextEncoder();

export async function relay(reply: UpstreamReply, plan: RelayPlan): Promise<GatewayResponse> {
  const type = (reply.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('text/event-stream')) {
    return {
      status: reply.status,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...plan.headers },
      stream: relayEvents(reply.body, plan),
    };
  }
  if (reply.status === 202 || type === '') {
    await reply.dump();
    if (plan.refusals.length > 0) return rpcJson(200, plan.batch ? plan.refusals : plan.refusals[0], plan.headers);
    return { status: reply.status, headers: { ...plan.headers }, raw: '' };
  }
  if (!type.startsWith('application/json')) {
    await reply.dump();
    throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${plan.serverSlug} answered with ${type}, not JSON or server-sent events`, null, 'bad_gateway', plan.serverSlug);
  }
  const bytes = await readBounded(reply, plan);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${plan.serverSlug} answered with malformed JSON`, null, 'bad_gateway', plan.serverSlug);
  }
  const messages = Array.isArray(value) ? value : [value];
  const out: unknown[] = [];
  for (const m of messages) out.push(await rewritten(m, plan));
  out.push(...plan.refusals);
  return rpcJson(reply.status, plan.batch || out.length > 1 ? out : out[0], plan.headers);
}

async function* relayEvents(source: AsyncIterable<Uint8Array>, plan: RelayPlan): AsyncGenerator<Uint8Array> {
  for (const refusal of plan.refusals) yield encoder.encode(rewrittenEvent({ event: 'message' }, JSON.stringify(refusal)));
  for await (const event of sseEvents(source)) {
    if (plan.rewrites.size === 0 || event.data === undefined) {
      yield encoder.encode(event.raw);
      continue;
    }
    let message: unknown;
    try {
      message = JSON.parse(event.data);
    } catch {
      yield encoder.encode(event.raw);
      continue;
    }
    const changed = await rewritten(message, plan);
    yield encoder.encode(changed === message ? event.raw : rewrittenEvent(event, JSON.stringify(changed)));
  }
}

/** The message, or its rewrite when it answers a request the gateway watches. */
async function rewritten(message: unknown, plan: RelayPlan): Promise<unknown> {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return message;
  const m = message as Message;
  const id = m['id'];
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof m['method'] === 'string') return message;
  const rewrite = plan.rewrites.get(id);
  if (!rewrite || m['result'] === undefined) return message;
  try {
    return await rewrite(m);
  } catch (e) {
    // A check that could not run must not let an unchecked result through.
    return rpcError(id, RpcCode.INTERNAL_ERROR, `the gateway could not check the answer: ${(e as Error).message}`);
  }
}

async function readBounded(reply: UpstreamReply, plan: RelayPlan): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of reply.body) {
    size += chunk.byteLength;
    if (size > plan.maxJsonBytes) {
      throw rpcFailure(502, RpcCode.UPSTREAM_ERROR, `MCP server ${plan.serverSlug} answered with more than ${plan.maxJsonBytes} bytes of JSON`, null, 'bad_gateway', plan.serverSlug);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
