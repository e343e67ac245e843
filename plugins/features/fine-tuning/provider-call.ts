/**
 * One call to a provider's OpenAI-format fine-tuning API through the shared transport.
 * The URL is the target's `custom_host` (a base URL with the version segment, as for inference)
 * or the provider's default base from the plugin options; headers are OpenAI's.
 * Failures become gateway errors: the provider's own status and message (provider set), 408 when
 * `request_timeout` (or the plugin's default) passes, 502 when the provider is unreachable or
 * answers something that is not JSON.
 */
import {
  baseUrlOf, Errors, GatewayError, parseJsonBytes, providerErrorFromBody, type ConfigNode, type RequestContext, type Transport, type UpstreamRequest,
} from '../../../core/index.js';
import { withOpenAICredentials } from '../../../providers/openai/credentials.js';

export interface ProviderTarget {
  provider: string;
  baseUrl: string;
  target: ConfigNode;
}

export interface ProviderAnswer {
  provider: string;
  /** The JSON body as received (validated by the caller). */
  bytes: Uint8Array;
  value: unknown;
}

/** The provider and base URL of a settled target, or a 400 when the provider has no fine-tuning API here. */
export function providerTarget(target: ConfigNode, bases: Readonly<Record<string, string>>, feature: string): ProviderTarget {
  const provider = target.provider;
  if (typeof provider !== 'string') throw Errors.invalidConfig('provider', `is required for ${feature}`);
  const known = Object.hasOwn(bases, provider) ? bases[provider] : undefined;
  if (known === undefined) throw Errors.unsupportedEndpoint(provider, feature);
  return { provider, target, baseUrl: baseUrlOf(target, known) };
}

export async function callProvider(
  transport: Transport, ctx: RequestContext, to: ProviderTarget, method: 'GET' | 'POST', path: string,
  body: string | Uint8Array | undefined, defaultTimeoutMs: number,
): Promise<ProviderAnswer> {
  const request: UpstreamRequest = { url: to.baseUrl + path, method, headers: openAIHeaders(to.target, body !== undefined) };
  if (body !== undefined) request.body = body;
  const configured = to.target.request_timeout;
  const timeoutMs = typeof configured === 'number' && configured > 0 ? configured : defaultTimeoutMs;
  const signal = AbortSignal.any([ctx.request.signal, AbortSignal.timeout(timeoutMs)]);
  const provider = to.provider;
  try {
    const reply = await transport.send(request, signal);
    const bytes = await reply.bytes();
    if (reply.status >= 400) throw providerErrorFromBody(reply.status, bytes, provider);
    const contentType = reply.headers['content-type'] ?? '';
    const value = contentType.includes('json') ? parseJsonBytes(bytes) : undefined;
    if (value === undefined) throw Errors.badGateway(`provider ${provider} answered with ${contentType || 'no content-type'}, not JSON`, provider);
    return { provider, bytes, value };
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    if (ctx.request.signal.aborted) throw Errors.clientClosed();
    if (signal.aborted) throw Errors.timeout(timeoutMs, provider);
    throw Errors.badGateway(`provider ${provider} is unreachable: ${(e as Error).message ?? String(e)}`, provider);
  }
}

function openAIHeaders(target: ConfigNode, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (hasBody) headers['content-type'] = 'application/json';
  return withOpenAICredentials(target, headers);
}
