/**
 * The Voyage AI adapter: rerank. Base URL `https://api.voyageai.com/v1`; `custom_host` replaces it
 * and must include the version segment (`{custom_host}/rerank`). Auth: `Authorization: Bearer <api_key>`.
 */
import { randomUUID } from 'node:crypto';
import { baseUrlOf, JsonPayload, type ConfigNode, type Issue, type ProviderAdapter } from '../../core/index.js';
import { voyageError } from './errors.js';
import { fromVoyageRerank, toVoyageRerank } from './rerank.js';

export const VOYAGE_BASE_URL = 'https://api.voyageai.com/v1';
const PROVIDER = 'voyage';

export function voyageUrl(target: ConfigNode, path: string): string {
  return baseUrlOf(target, VOYAGE_BASE_URL) + path;
}

export function createVoyageAdapter(): ProviderAdapter {
  return {
    id: PROVIDER,
    endpoints: {
      rerank: {
        request(input) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (typeof input.target.api_key === 'string') headers['authorization'] = `Bearer ${input.target.api_key}`;
          return { url: voyageUrl(input.target, '/rerank'), method: 'POST', headers, body: JSON.stringify(toVoyageRerank(input.body)) };
        },
        response: (json, input) => JsonPayload.of(
          fromVoyageRerank(json.value as Parameters<typeof fromVoyageRerank>[0], input.body, PROVIDER, `rerank-${randomUUID()}`),
        ),
        error: (status, body) => voyageError(status, body, PROVIDER),
      },
    },
    validateTarget(target: ConfigNode, path: string): Issue[] {
      if (target.api_key !== undefined || target.custom_host !== undefined) return [];
      return [{ path: path ? `${path}.api_key` : 'api_key', rule: `is required for provider "${PROVIDER}" (or set custom_host)` }];
    },
  };
}
