/**
 * Runs one batch line through the gateway's own pipeline, exactly as a live request: a
 * GatewayRequest built from the stored headers and the line's body, matched route, onRequest
 * (auth is skipped: the context already carries the creator's principal), config resolution,
 * routing, retries, cache, guardrails, then the observers (logs, usage) via `complete`.
 */
import {
  dispatchInternal, sortableId, type GatewayRequest, type GatewayResponse, type Kernel, type Principal, type RouteDef,
} from '../../../core/index.js';
import type { ParsedLine } from './input.js';

export interface LinePlan {
  route: RouteDef;
  params: Record<string, string>;
  path: string;
  headers: Readonly<Record<string, string>>;
  principal: Principal | undefined;
}

export interface LineResult {
  ok: boolean;
  /** The output line (`{id, custom_id, response: {status_code, request_id, body}, error}`), serialised. */
  text: string;
}

const NO_QUERY = new URLSearchParams();

export async function dispatchLine(kernel: Kernel, plan: LinePlan, line: ParsedLine, signal: AbortSignal): Promise<LineResult> {
  const request: GatewayRequest = {
    method: 'POST',
    path: plan.path,
    query: NO_QUERY,
    // A copy per line: plugins may treat a request's headers as theirs.
    headers: { ...plan.headers },
    body: line.body,
    rawBody: Buffer.from(JSON.stringify(line.body), 'utf8'),
    signal,
  };
  const { ctx, response } = await dispatchInternal(kernel, request, plan.principal);
  let body: unknown = null;
  let error: unknown;
  try {
    body = await answerBody(response);
  } catch (e) {
    error = e;
  }
  kernel.complete(ctx, response, error);
  const status = response.status;
  const requestId = response.headers['x-request-id'] ?? (ctx.traceId || null);
  const text = JSON.stringify({
    id: sortableId('batch_req_'),
    custom_id: line.customId,
    response: { status_code: status, request_id: requestId, body },
    error: null,
  });
  return { ok: status >= 200 && status < 300, text };
}

async function answerBody(response: GatewayResponse): Promise<unknown> {
  if (response.json) {
    const value = response.json.tryValue();
    if (value !== undefined) return value;
    const bytes = response.json.bytes();
    return typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  }
  if (response.stream) {
    // Lines cannot ask for streams (validation refuses them); release the upstream if one appears anyway.
    for await (const _chunk of response.stream) break;
    return null;
  }
  if (response.raw === undefined) return null;
  const text = typeof response.raw === 'string' ? response.raw : Buffer.from(response.raw).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
