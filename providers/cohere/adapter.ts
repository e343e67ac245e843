/**
 * The Cohere adapter: chat (v2, plain and streamed), embed and rerank, translated both ways.
 * Base URL `https://api.cohere.com/v2`; `custom_host` replaces it and must include the version
 * segment (paths below it: `/chat`, `/embed`, `/rerank`). Auth: `Authorization: Bearer <api_key>`.
 */
import { randomUUID } from 'node:crypto';
import {
  baseUrlOf, JsonPayload, toSse, type AdapterInput, type ConfigNode, type EndpointAdapter, type Issue, type ProviderAdapter, type UpstreamRequest,
} from '../../core/index.js';
import { toCohereChat } from './chat-request.js';
import { fromCohereChat } from './chat-response.js';
import { cohereChatChunks } from './chat-stream.js';
import { fromCohereEmbed, toCohereEmbed } from './embed.js';
import { cohereError } from './errors.js';
import { fromCohereRerank, toCohereRerank } from './rerank.js';
import { providerOf, type CohereChatResponse } from './wire.js';

export const COHERE_BASE_URL = 'https://api.cohere.com/v2';

export function cohereUrl(target: ConfigNode, path: string): string {
  return baseUrlOf(target, COHERE_BASE_URL) + path;
}

function post(input: AdapterInput, path: string, body: Record<string, unknown>): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: input.stream ? 'text/event-stream' : 'application/json' };
  if (typeof input.target.api_key === 'string') headers['authorization'] = `Bearer ${input.target.api_key}`;
  return { url: cohereUrl(input.target, path), method: 'POST', headers, body: JSON.stringify(body) };
}

const fallbackId = () => randomUUID();
const modelOf = (input: AdapterInput) => String(input.body['model']);
const error = (status: number, body: Uint8Array, input: AdapterInput) => cohereError(status, body, providerOf(input.target));

const chat: EndpointAdapter = {
  request: (input) => post(input, '/chat', toCohereChat(input.body, input.stream)),
  response: (json, input) => JsonPayload.of(fromCohereChat(json.value as CohereChatResponse, modelOf(input), fallbackId)),
  stream: (body, input) => toSse(cohereChatChunks(body, {
    model: modelOf(input),
    provider: providerOf(input.target),
    includeUsage: (input.body['stream_options'] as { include_usage?: unknown } | undefined)?.include_usage === true,
    fallbackId,
  })),
  error,
};

const embed: EndpointAdapter = {
  request: (input) => post(input, '/embed', toCohereEmbed(input.body)),
  response: (json, input) => JsonPayload.of(fromCohereEmbed(json.value as Parameters<typeof fromCohereEmbed>[0], input.body)),
  error,
};

const rerank: EndpointAdapter = {
  request: (input) => post(input, '/rerank', toCohereRerank(input.body)),
  response: (json, input) => JsonPayload.of(
    fromCohereRerank(json.value as Parameters<typeof fromCohereRerank>[0], input.body, providerOf(input.target), fallbackId),
  ),
  error,
};

export function createCohereAdapter(): ProviderAdapter {
  return {
    id: 'cohere',
    endpoints: { chatComplete: chat, embed, rerank },
    validateTarget(target: ConfigNode, path: string): Issue[] {
      if (target.api_key !== undefined || target.custom_host !== undefined) return [];
      return [{ path: path ? `${path}.api_key` : 'api_key', rule: 'is required for provider "cohere" (or set custom_host)' }];
    },
  };
}
