/**
 * Requests the gateway sends to itself (prompt completions, the Responses API over chat, batch
 * lines): the full lifecycle — config, routing, retries, cache, guardrails — then the observers
 * (logs, usage) once the answer is consumed. The caller's principal is carried over, so auth
 * does not run twice.
 */
import { Errors } from './errors.js';
import type { Kernel } from './kernel.js';
import type { RequestValues } from './request-values.js';
import type { GatewayRequest, GatewayResponse, Principal, RequestContext } from './types.js';

/**
 * Runs `request` through its route as `principal`, its values seeded with `values`. For a stream answer, observers hear of it once
 * the stream has been written (or abandoned); otherwise at once.
 */
export async function dispatchInternal(
  kernel: Kernel, request: GatewayRequest, principal: RequestContext['principal'],
  values?: RequestValues,
): Promise<{ ctx: RequestContext; response: GatewayResponse }> {
  const match = kernel.registries.routes.match(request.method, request.path);
  if (!match.route) throw Errors.unavailable(`${request.method} ${request.path} is not served by this gateway`);
  const ctx = kernel.createContext(request, match.route, match.params);
  ctx.principal = principal;
  if (values) ctx.values.copyFrom(values);
  const response = await kernel.handle(ctx);
  if (!response.stream) return { ctx, response };
  const stream = response.stream;
  response.stream = (async function* () {
    let error: unknown;
    try {
      yield* stream;
    } catch (e) {
      error = e;
      throw e;
    } finally {
      kernel.complete(ctx, response, error);
    }
  })();
  return { ctx, response };
}

/**
 * Runs a body through an inference route (`/v1/chat/completions` ...) as if `ctx`'s caller had sent
 * it: same headers (so the same config), same principal, same trace id. Observers of a non-stream
 * answer are told at once.
 */
export async function dispatchInference(
  kernel: Kernel, ctx: RequestContext, path: string, body: Record<string, unknown>,
  values?: RequestValues,
): Promise<GatewayResponse> {
  const headers = ctx.traceId ? { ...ctx.request.headers, 'x-gw-trace-id': ctx.traceId } : ctx.request.headers;
  const request: GatewayRequest = { method: 'POST', path, query: new URLSearchParams(), headers, body, signal: ctx.request.signal };
  const { ctx: inner, response } = await dispatchInternal(kernel, request, ctx.principal as Principal | undefined, values);
  if (!response.stream) kernel.complete(inner, response);
  return response;
}
