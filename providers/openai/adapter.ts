/**
 * The OpenAI wire format is the gateway's own, so this adapter only builds URLs and headers:
 * bodies and streams pass through untouched (no parse, no re-serialise beyond the request body).
 * `custom_host` points it at any OpenAI-compatible server; its value is the base URL including
 * the version segment, as an OpenAI SDK's `baseURL` (e.g. `http://127.0.0.1:8000/v1`).
 */
import type { AdapterInput, ConfigNode, EndpointAdapter, Issue, ProviderAdapter, UpstreamRequest } from '../../core/index.js';

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Endpoint id → path below the base URL. */
const PATHS: Readonly<Record<string, string>> = {
  chatComplete: '/chat/completions',
  complete: '/completions',
  embed: '/embeddings',
  moderate: '/moderations',
};

export function baseUrl(target: ConfigNode, fallback: string): string {
  const base = typeof target.custom_host === 'string' ? target.custom_host : fallback;
  return base.endsWith('/') ? base.slice(0, -1) : base;
}

function buildHeaders(target: ConfigNode): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof target.api_key === 'string') headers['authorization'] = `Bearer ${target.api_key}`;
  if (typeof target['vendorD_organization'] === 'string') headers['openai-organization'] = target['vendorD_organization'];
  if (typeof target['vendorD_project'] === 'string') headers['openai-project'] = target['vendorD_project'];
  return headers;
}

/** The client's own bytes when no plugin changed the body: no re-serialisation on the hot path. */
export function requestBytes(input: AdapterInput): string | Uint8Array {
  const request = input.attempt.ctx.request;
  return input.body === request.body && request.rawBody ? request.rawBody : JSON.stringify(input.body);
}

function endpoint(path: string, defaultBase: string): EndpointAdapter {
  return {
    request(input: AdapterInput): UpstreamRequest {
      return {
        url: baseUrl(input.target, defaultBase) + path,
        method: 'POST',
        headers: buildHeaders(input.target),
        body: requestBytes(input),
      };
    },
  };
}

export function createOpenAIAdapter(id = 'openai', defaultBase = OPENAI_BASE_URL): ProviderAdapter {
  const endpoints: Record<string, EndpointAdapter> = {};
  for (const [endpointId, path] of Object.entries(PATHS)) endpoints[endpointId] = endpoint(path, defaultBase);
  return {
    id,
    endpoints,
    validateTarget(target: ConfigNode, path: string): Issue[] {
      if (target.api_key !== undefined || target.custom_host !== undefined) return [];
      return [{ path: path ? `${path}.api_key` : 'api_key', rule: `is required for provider "${id}" (or set custom_host)` }];
    },
  };
}
