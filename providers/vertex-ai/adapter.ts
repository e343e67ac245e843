/**
 * The Vertex AI provider adapter (chat completions). Gemini models speak `generateContent` /
 * `streamGenerateContent?alt=sse`; models whose id starts with `claude` go to Anthropic's
 * `rawPredict` / `streamRawPredict` (claude.ts). Auth: a token minted from
 * `cloudC_service_account_json` and cached (core/cloud-auth/google-tokens.ts); without a service account, `api_key` is sent
 * as a ready Bearer access token.
 */
import {
  JsonPayload,
  type AdapterInput, type CompleteEndpointAdapter, type ProviderAdapter, type UpstreamRequest,
} from '../../core/index.js';
import { claudeEndpoint, claudeMessagesEndpoint, isClaudeModel } from './claude.js';
import { googleError } from '../gemini-common/errors.js';
import { toGeminiRequest } from './gemini-request.js';
import { fromGeminiResponse } from './gemini-response.js';
import { geminiStreamToUnified } from './gemini-stream.js';
import type { GeminiResponse } from './gemini-common.js';
import { checkedModel, modelUrl, PROVIDER_ID, serviceAccountOf, validateTarget } from './target.js';
import type { ServiceAccountTokens } from '../../core/index.js';

export interface VertexAdapterDeps {
  tokens: Pick<ServiceAccountTokens, 'token'>;
  /** The anthropic provider, looked up when a Claude model is first asked for. */
  anthropic: () => ProviderAdapter | undefined;
}

export function createVertexAdapter(deps: VertexAdapterDeps): ProviderAdapter {
  const authorization = async (input: AdapterInput): Promise<Record<string, string>> => {
    const { target } = input;
    // The service account wins: an SDK client's own Authorization header reaches the config as api_key.
    const sa = serviceAccountOf(target);
    if (sa) return { authorization: `Bearer ${await deps.tokens.token(sa, input.attempt.signal)}` };
    if (typeof target.api_key === 'string') return { authorization: `Bearer ${target.api_key}` };
    // Neither: a custom_host that authenticates by itself (validateTarget allows only that case).
    return {};
  };

  const gemini: CompleteEndpointAdapter = {
    async request(input): Promise<UpstreamRequest> {
      const model = checkedModel(input.body['model']);
      const body = JSON.stringify(toGeminiRequest(input.body));
      const url = modelUrl(input.target, 'google', model, input.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
      return { url, method: 'POST', headers: { 'content-type': 'application/json', ...(await authorization(input)) }, body };
    },
    response(body, input) {
      return JsonPayload.of(fromGeminiResponse(body.value as GeminiResponse, String(input.body['model'])));
    },
    stream(body, input) {
      const options = input.body['stream_options'] as { include_usage?: unknown } | undefined;
      return geminiStreamToUnified(body, String(input.body['model']), options?.include_usage === true);
    },
    error(status, body) {
      return googleError(status, body, PROVIDER_ID);
    },
  };
  const claude = claudeEndpoint(deps.anthropic, authorization);
  const pick = (input: AdapterInput) => (isClaudeModel(input.body['model']) ? claude : gemini);

  const chatComplete: CompleteEndpointAdapter = {
    request: (input) => pick(input).request(input),
    response: (body, input) => pick(input).response(body, input),
    stream: (body, input) => pick(input).stream(body, input),
    error: (status, body, input, headers) => pick(input).error(status, body, input, headers),
  };

  // The Messages API (feature.messages) natively for Claude models; Gemini ones go through chat.
  const messages = claudeMessagesEndpoint(deps.anthropic, authorization);
  return { id: PROVIDER_ID, endpoints: { chatComplete, messages }, validateTarget };
}
