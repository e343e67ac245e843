/**
 * The OpenAI wire format is the gateway's own, so this adapter only builds URLs and headers:
 * bodies and streams pass through untouched (no parse, no re-serialise beyond the request body).
 * `custom_host` points it at any OpenAI-compatible server; its value is the base URL including
 * the version segment, as an OpenAI SDK's `baseURL` (e.g. `http://127.0.0.1:8000/v1`).
 * The same adapter serves the OpenAI-compatible presets (presets.ts) under their own ids.
 */
import {
  baseUrlOf, encodeMultipart, isFormBody, type AdapterInput, type ConfigNode, type EndpointAdapter, type Issue, type ProviderAdapter,
  type ProxyBase, type UpstreamRequest,
} from '../../core/index.js';
import { withOpenAICredentials } from './credentials.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Endpoint id → path below the base URL. */
const PATHS: Readonly<Record<string, string>> = {
  chatComplete: '/chat/completions',
  complete: '/completions',
  embed: '/embeddings',
  moderate: '/moderations',
  imageGenerate: '/images/generations',
  imageEdit: '/images/edits',
  createSpeech: '/audio/speech',
  createTranscription: '/audio/transcriptions',
  createTranslation: '/audio/translations',
};

function buildHeaders(target: ConfigNode): Record<string, string> {
  return withOpenAICredentials(target, { 'content-type': 'application/json' });
}

/** The client's own bytes when no plugin changed the body: no re-serialisation on the hot path. */
export function requestBytes(input: AdapterInput): string | Uint8Array {
  const request = input.attempt.ctx.request;
  return input.body === request.body && request.rawBody ? request.rawBody : JSON.stringify(input.body);
}

function endpoint(path: string, defaultBase: string): EndpointAdapter {
  return {
    request(input: AdapterInput): UpstreamRequest {
      const request: UpstreamRequest = {
        url: baseUrlOf(input.target, defaultBase) + path,
        method: 'POST',
        headers: buildHeaders(input.target),
        body: requestBytes(input),
      };
      return isFormBody(input.body) ? asForm(request, input.body) : request;
    },
  };
}

/** A form body (image edits, transcriptions) goes out as multipart again, written for this attempt. */
export function asForm(request: UpstreamRequest, body: Readonly<Record<string, unknown>>): UpstreamRequest {
  const form = encodeMultipart(body);
  request.headers['content-type'] = form.contentType;
  request.headers['content-length'] = String(form.length);
  request.body = form.body;
  return request;
}

export interface OpenAIAdapterOptions {
  /** Whether a target needs `api_key` (unless it sets `custom_host`). Default true. */
  requiresKey?: boolean;
  /** Whether the host refuses chat fields OpenAI does not document (ProviderAdapter.strictChat). Default false. */
  strictChat?: boolean;
}

/** `defaultBase` null: the host has no public URL, so every target must set `custom_host`. */
export function createOpenAIAdapter(
  id = 'openai', defaultBase: string | null = OPENAI_BASE_URL, options: OpenAIAdapterOptions = {},
): ProviderAdapter {
  const requiresKey = options.requiresKey ?? true;
  const endpoints: Record<string, EndpointAdapter> = {};
  // Validation guarantees custom_host when there is no default base, so '' is never used.
  for (const [endpointId, path] of Object.entries(PATHS)) endpoints[endpointId] = endpoint(path, defaultBase ?? '');
  return {
    id,
    endpoints,
    strictChat: options.strictChat === true,
    // Any other path of the API: the same base and credentials (the content-type is the client's).
    proxyBase: (target: ConfigNode): ProxyBase => ({ url: baseUrlOf(target, defaultBase ?? ''), headers: withOpenAICredentials(target, {}) }),
    validateTarget(target: ConfigNode, path: string): Issue[] {
      const prefix = path ? `${path}.` : '';
      if (target.custom_host !== undefined) return [];
      if (defaultBase === null) return [{ path: `${prefix}custom_host`, rule: `is required for provider "${id}" (it has no public host)` }];
      if (!requiresKey || target.api_key !== undefined) return [];
      return [{ path: `${prefix}api_key`, rule: `is required for provider "${id}" (or set custom_host)` }];
    },
  };
}
