/**
 * The JSON-RPC 2.0 messages MCP speaks, as the gateway reads and writes them: a client body (one
 * message, or a batch under protocol 2025-03-26), and the error answers the gateway makes itself.
 */
import { GatewayError, JsonPayload, type GatewayResponse } from '../../../core/index.js';

export type JsonRpcId = string | number;
export type Message = Record<string, unknown>;

/** JSON-RPC's own codes, and the MCP SDK's for a closed connection / missing session. */
export const RpcCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Implementation-defined server errors (-32000 to -32099). */
  UNAUTHORIZED: -32001,
  GUARDRAIL_DENIED: -32002,
  UPSTREAM_ERROR: -32003,
  SESSION_NOT_FOUND: -32004,
} as const;

export interface ClientBody {
  readonly messages: readonly Message[];
  /** Whether the client sent an array (a batch): the answer is then an array too. */
  readonly batch: boolean;
}

/** A client's POST body, or a 400 naming what is wrong with it. */
export function parseClientBody(bytes: Uint8Array | undefined): ClientBody {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes ?? new Uint8Array()).toString('utf8'));
  } catch (e) {
    throw rpcFailure(400, RpcCode.PARSE_ERROR, `Parse error: body is not valid JSON (${(e as Error).message})`, 'body');
  }
  const batch = Array.isArray(value);
  const messages = batch ? (value as unknown[]) : [value];
  if (messages.length === 0) throw rpcFailure(400, RpcCode.INVALID_REQUEST, 'Invalid Request: body is an empty batch', 'body');
  for (let i = 0; i < messages.length; i++) {
    const at = batch ? `body[${i}]` : 'body';
    const m = messages[i];
    if (m === null || typeof m !== 'object' || Array.isArray(m)) throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at} must be a JSON-RPC message object`, at);
    const message = m as Message;
    if (message['jsonrpc'] !== '2.0') throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at}.jsonrpc must be "2.0"`, `${at}.jsonrpc`);
    const id = message['id'];
    if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') {
      throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at}.id must be a string or a number`, `${at}.id`);
    }
    const method = message['method'];
    if (method !== undefined && typeof method !== 'string') throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at}.method must be a string`, `${at}.method`);
    if (method === undefined && id === undefined) {
      throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at} is neither a request, a notification nor a response`, at);
    }
    const params = message['params'];
    if (params !== undefined && (params === null || typeof params !== 'object')) {
      throw rpcFailure(400, RpcCode.INVALID_REQUEST, `Invalid Request: ${at}.params must be an object or an array`, `${at}.params`);
    }
  }
  return { messages: messages as Message[], batch };
}

/** A request (method and id) expects an answer; notifications and responses do not. */
export function isRequest(m: Message): boolean {
  return typeof m['method'] === 'string' && m['id'] !== undefined;
}

export function paramsOf(m: Message): Record<string, unknown> {
  const p = m['params'];
  return p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

/** The JSON-RPC error answer to one request. */
export function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown): Message {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error['data'] = data;
  return { jsonrpc: '2.0', id, error };
}

/**
 * An HTTP-level refusal. Its body is a JSON-RPC error response (what MCP clients read: `id` null,
 * a numeric `error.code`) that is also the gateway's error envelope: `error.message`,
 * `error.type`, `error.param` and `provider` (the MCP server's slug when the upstream caused it);
 * the gateway's own error code is `error.data.code`.
 */
export function rpcFailure(status: number, code: number, message: string, param: string | null = null, gwCode = codeFor(status), provider?: string): GatewayError {
  return new RpcFailure(status, code, message, param, gwCode, provider);
}

export class RpcFailure extends GatewayError {
  constructor(status: number, readonly rpcCode: number, message: string, param: string | null, gwCode: string, provider?: string) {
    super({ status, message, param, code: gwCode, provider });
  }

  response(extraHeaders: Record<string, string> = {}): GatewayResponse {
    return rpcJson(this.status, {
      jsonrpc: '2.0',
      id: null,
      error: { code: this.rpcCode, message: this.message, type: this.type, param: this.param, data: { code: this.code, param: this.param } },
      provider: this.provider,
    }, extraHeaders);
  }
}

function codeFor(status: number): string {
  if (status === 400) return 'invalid_body';
  if (status === 404) return 'session_not_found';
  if (status === 401) return 'unauthorized';
  return 'mcp_error';
}

export function rpcJson(status: number, value: unknown, headers: Record<string, string> = {}): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, json: JsonPayload.of(value) };
}
