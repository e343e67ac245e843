/**
 * The Messages API spoken natively: the gateway's own `/v1/messages` and `/v1/messages/count_tokens`
 * (feature.messages) passed to Anthropic as they came. The body goes as the client sent it (its own
 * bytes while no plugin changed it, e.g. override_params), answers and streams come back untouched;
 * only answers that are not the API's protocol are refused (502) and errors read as for chat.
 * The client's `anthropic-beta` header passes on: it selects API features, it carries no secret.
 */
import type { AdapterInput, ConfigNode, EndpointAdapter, ProxyBase, UpstreamRequest } from '../../core/index.js';
import { fromErrorBody } from './errors.js';
import { isMessage } from './response.js';
import { ANTHROPIC_BASE_URL, ANTHROPIC_VERSION } from './wire.js';

export function messagesUrl(target: ConfigNode): string {
  if (typeof target.custom_host !== 'string') return `${ANTHROPIC_BASE_URL}/v1/messages`;
  const base = target.custom_host.endsWith('/') ? target.custom_host.slice(0, -1) : target.custom_host;
  return `${base}/messages`;
}

export function anthropicHeaders(target: ConfigNode): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  if (typeof target.api_key === 'string') h['x-api-key'] = target.api_key;
  return h;
}

/**
 * Any other path of the API (models, batches, files ...) for the generic proxy: the key as
 * `x-api-key`; the API version is the client's when it sends one.
 */
export function anthropicProxyBase(target: ConfigNode): ProxyBase {
  const url = typeof target.custom_host === 'string' ? target.custom_host.replace(/\/+$/, '') : `${ANTHROPIC_BASE_URL}/v1`;
  const headers: Record<string, string> = {};
  if (typeof target.api_key === 'string') headers['x-api-key'] = target.api_key;
  return { url, headers, defaultHeaders: { 'anthropic-version': ANTHROPIC_VERSION } };
}

/** The client's own bytes when nothing changed the body: no re-serialisation, nothing reordered. */
function clientBytes(input: AdapterInput): string | Uint8Array {
  const request = input.attempt.ctx.request;
  return input.body === request.body && request.rawBody ? request.rawBody : JSON.stringify(input.body);
}

function nativeRequest(input: AdapterInput, path: string): UpstreamRequest {
  const headers = anthropicHeaders(input.target);
  const beta = input.attempt.ctx.request.headers['anthropic-beta'];
  if (typeof beta === 'string' && beta !== '') headers['anthropic-beta'] = beta;
  return { url: messagesUrl(input.target) + path, method: 'POST', headers, body: clientBytes(input) };
}

function providerOf(input: AdapterInput): string {
  return typeof input.target.provider === 'string' ? input.target.provider : 'anthropic';
}

/** POST /v1/messages as it is; a stream passes event by event (the endpoint's own guard checks its end). */
export const nativeMessages: EndpointAdapter = {
  request: (input) => nativeRequest(input, ''),
  response(body) {
    if (!isMessage(body.value)) throw new Error('not a Messages API message');
    return body;
  },
  error: (status, body, input) => fromErrorBody(status, body, providerOf(input)),
};

/** POST /v1/messages/count_tokens as it is: `{input_tokens}` back. */
export const nativeCountTokens: EndpointAdapter = {
  request: (input) => nativeRequest(input, '/count_tokens'),
  response(body) {
    const value = body.value as { input_tokens?: unknown } | null;
    if (typeof value?.input_tokens !== 'number') throw new Error('no input_tokens in the count_tokens answer');
    return body;
  },
  error: (status, body, input) => fromErrorBody(status, body, providerOf(input)),
};
