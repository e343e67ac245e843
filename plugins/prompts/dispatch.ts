/**
 * Runs a body through the gateway's own inference route (`/v1/chat/completions`, `/v1/completions`)
 * as if the caller had sent it: same headers (so the same config), same principal (auth does not
 * run twice), same trace id; the full lifecycle (routing, retries, cache, guardrails, logs) applies.
 */
import {
  Errors, type GatewayRequest, type GatewayResponse, type Kernel, type RequestContext, type Router,
} from '../../core/index.js';

const NO_LOCALS: ReadonlyMap<symbol, unknown> = new Map();

export async function dispatchInference(
  kernel: Kernel, routes: Router, ctx: RequestContext, path: string, body: Record<string, unknown>,
  locals: ReadonlyMap<symbol, unknown> = NO_LOCALS,
): Promise<GatewayResponse> {
  const match = routes.match('POST', path);
  if (!match.route) throw Errors.unavailable(`${path} is not served by this gateway (load endpoints.inference)`);
  const headers = ctx.traceId ? { ...ctx.request.headers, 'x-gw-trace-id': ctx.traceId } : ctx.request.headers;
  const request: GatewayRequest = { method: 'POST', path, query: new URLSearchParams(), headers, body, signal: ctx.request.signal };
  const inner = kernel.createContext(request, match.route, match.params);
  inner.principal = ctx.principal;
  for (const [key, value] of locals) inner.locals.set(key, value);
  const response = await kernel.handle(inner);
  if (!response.stream) {
    kernel.complete(inner, response);
    return response;
  }
  // Observers of the inner request hear of it once its stream has been written (or abandoned).
  const stream = response.stream;
  response.stream = (async function* () {
    let error: unknown;
    try {
      yield* stream;
    } catch (e) {
      error = e;
      throw e;
    } finally {
      kernel.complete(inner, response, error);
    }
  })();
  return response;
}
