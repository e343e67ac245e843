/**
 * One proxied request: the route's handler. Path checked, config resolved, the first target's
 * provider base found, limits applied (preRoute: rate and usage limits see endpoint_type `proxy`),
 * then the client's body streamed to the provider as it arrives and the provider's answer streamed
 * back as it is: status, body and headers (hop-by-hop and cookies dropped). A provider error is
 * the provider's answer too; only no answer at all (refused, reset) is the gateway's 502.
 */
import {
  Errors, firstLeaf, isGatewayError, type GatewayRequest, type GatewayResponse, type Kernel, type ProviderAdapter, type Registry,
  type RequestContext, type Transport, type UpstreamReply,
} from '../../../core/index.js';
import { describeNetworkError } from '../upstream/network-errors.js';
import { answerHeaders, upstreamHeaders } from './headers.js';
import { proxiedUrl } from './upstream-url.js';

export interface ProxyDeps {
  kernel: Kernel;
  transport: Transport;
  providers: Registry<ProviderAdapter>;
  maxBodyBytes: number;
}

export async function forward(ctx: RequestContext, deps: ProxyDeps): Promise<GatewayResponse> {
  const rest = ctx.params['*'] ?? '';
  const config = await deps.kernel.resolveConfig(ctx);
  const target = firstLeaf(config, deps.kernel.configKeys);
  const providerId = target.provider;
  if (typeof providerId !== 'string' || providerId === '') throw Errors.invalidConfig('provider', 'is required: the proxy forwards to the provider the request names');
  const adapter = deps.providers.get(providerId);
  if (!adapter) throw Errors.unknownProvider(providerId);
  if (!adapter.proxyBase) {
    throw Errors.invalidRequest(`provider ${providerId} cannot be proxied: it serves only the endpoints the gateway implements`, 'provider', 'unsupported_endpoint');
  }
  const base = adapter.proxyBase(target);
  const request = ctx.request;
  const url = proxiedUrl(base, rest, request.query);
  const body = bodyOf(request, deps.maxBodyBytes);

  const early = await deps.kernel.preRoute(ctx);
  if (early) return early;

  ctx.outcome = { status: 0, provider: providerId, retries: 0, target };
  let reply: UpstreamReply;
  try {
    reply = await deps.transport.send({ url, method: request.method, headers: upstreamHeaders(request.headers, base), body }, request.signal);
  } catch (e) {
    if (request.signal.aborted) throw request.signal.reason ?? e;
    // The outbound host policy's refusal, or the client's body over the limit: that error, not a 502.
    if (isGatewayError(e)) throw e;
    throw Errors.badGateway(`provider ${providerId} is unreachable: ${describeNetworkError(e)}`, providerId);
  }
  ctx.outcome = { status: reply.status, provider: providerId, retries: 0, target, upstreamHeaders: reply.headers };
  // For the logs: an answer of server-sent events is a stream.
  ctx.stream = (reply.headers['content-type'] ?? '').startsWith('text/event-stream');
  const headers = answerHeaders(reply.headers);
  headers['content-type'] ??= 'application/octet-stream';
  return { status: reply.status, headers, stream: reply.body };
}

/** The client's body as it arrives (none when it declares none), stopped with a 413 past the limit. */
function bodyOf(request: GatewayRequest, maxBytes: number): AsyncIterable<Uint8Array> | undefined {
  const length = request.headers['content-length'];
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) return undefined;
  if (length !== undefined && Number(length) > maxBytes) throw Errors.payloadTooLarge(maxBytes);
  const source = request.bodyStream;
  if (!source) return undefined;
  return limited(source, maxBytes);
}

async function* limited(source: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw Errors.payloadTooLarge(maxBytes);
    yield chunk;
  }
}
