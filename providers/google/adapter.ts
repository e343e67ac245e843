/**
 * The Gemini API provider adapter (`google`): chat through `generateContent` /
 * `streamGenerateContent?alt=sse` and embeddings through `embedContent` / `batchEmbedContents`.
 * The Gemini translation is the one Vertex AI uses (providers/gemini-common/); this file only
 * places the calls (target.ts) and names this provider in answers and errors.
 */
import { JsonPayload, type CompleteEndpointAdapter, type EndpointAdapter, type ProviderAdapter, type UpstreamRequest } from '../../core/index.js';
import type { GeminiResponse } from '../gemini-common/answers.js';
import { googleError } from '../gemini-common/errors.js';
import { toGeminiRequest } from '../gemini-common/request.js';
import { fromGeminiResponse } from '../gemini-common/response.js';
import { geminiStreamToUnified } from '../gemini-common/stream.js';
import { embedMethodOf, fromGeminiEmbed, toGeminiEmbed } from './embed.js';
import { checkedModel, modelUrl, PROVIDER_ID, requestHeaders, validateTarget } from './target.js';

const error = (status: number, body: Uint8Array) => googleError(status, body, PROVIDER_ID);

const chatComplete: CompleteEndpointAdapter = {
  request(input): UpstreamRequest {
    const model = checkedModel(input.body['model']);
    const body = JSON.stringify(toGeminiRequest(input.body, PROVIDER_ID));
    const url = modelUrl(input.target, model, input.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
    return { url, method: 'POST', headers: requestHeaders(input.target), body };
  },
  response(body, input) {
    return JsonPayload.of(fromGeminiResponse(body.value as GeminiResponse, String(input.body['model']), PROVIDER_ID));
  },
  stream(body, input) {
    const options = input.body['stream_options'] as { include_usage?: unknown } | undefined;
    return geminiStreamToUnified(body, String(input.body['model']), options?.include_usage === true, PROVIDER_ID);
  },
  error,
};

const embed: EndpointAdapter = {
  request(input): UpstreamRequest {
    const model = checkedModel(input.body['model']);
    const body = JSON.stringify(toGeminiEmbed(input.body, model));
    return { url: modelUrl(input.target, model, embedMethodOf(input.body)), method: 'POST', headers: requestHeaders(input.target), body };
  },
  response: (json, input) => JsonPayload.of(fromGeminiEmbed(json.value as Parameters<typeof fromGeminiEmbed>[0], input.body)),
  error,
};

export function createGoogleAdapter(): ProviderAdapter {
  return { id: PROVIDER_ID, endpoints: { chatComplete, embed }, validateTarget };
}
