/**
 * The Anthropic Messages API as a provider adapter: chat completions translated, the gateway's own
 * Messages endpoints (`messages`, `countTokens`) passed through (native.ts); other endpoints answer
 * `unsupported_endpoint`. URL: `https://api.anthropic.com/v1/messages`, or `{custom_host}/messages`
 * where custom_host includes the version segment (as the OpenAI convention: `http://host:port/v1`).
 */
import {
  JsonPayload, parseSse,
  type AdapterInput, type ConfigNode, type EndpointAdapter, type Issue, type ProviderAdapter, type UpstreamRequest,
} from '../../core/index.js';
import { fromErrorBody } from './errors.js';
import { isStrict } from './strict-compliance.js';
import { toMessagesRequest, type RequestSettings } from './request.js';
import { isMessage, toChatCompletion } from './response.js';
import { translateStream } from './stream.js';
import { anthropicHeaders as headers, anthropicProxyBase, messagesUrl, nativeCountTokens, nativeMessages } from './native.js';
import type { MessagesRequest } from './wire.js';

export { messagesUrl };

export const PROVIDER_ID = 'anthropic';

/** The adapter, plus its body builder for adapters that speak Messages on another host (Vertex). */
export interface AnthropicAdapter extends ProviderAdapter {
  /** The Messages request body for an attempt (model included; a host that takes it from the URL drops it). */
  messagesRequest(input: AdapterInput): MessagesRequest;
}

/**
 * The provider that answers, as named in answers and errors: `anthropic`, or the provider that
 * re-uses these transforms for Claude models it hosts (e.g. `vertex-ai`).
 */
function servingProvider(input: AdapterInput): string {
  return typeof input.target.provider === 'string' ? input.target.provider : PROVIDER_ID;
}

export function createAnthropicAdapter(settings: RequestSettings): AnthropicAdapter {
  const messagesRequest = (input: AdapterInput) => toMessagesRequest(input.body, input.target, settings, input.stream);

  const chatComplete: EndpointAdapter = {
    request(input): UpstreamRequest {
      return { url: messagesUrl(input.target), method: 'POST', headers: headers(input.target), body: JSON.stringify(messagesRequest(input)) };
    },
    response(body, input) {
      const message = body.value;
      if (!isMessage(message)) throw new Error('not a Messages API message');
      return JsonPayload.of(toChatCompletion(message, servingProvider(input), isStrict(input.target)));
    },
    stream(body, input) {
      const options = input.body.stream_options as { include_usage?: unknown } | undefined;
      return translateStream(parseSse(body), {
        provider: servingProvider(input),
        strict: isStrict(input.target),
        includeUsage: options?.include_usage === true,
      });
    },
    error(status, body, input) {
      return fromErrorBody(status, body, servingProvider(input));
    },
  };

  return {
    id: PROVIDER_ID,
    // `messages` and `countTokens` are the Messages API itself (feature.messages): passed through.
    endpoints: { chatComplete, messages: nativeMessages, countTokens: nativeCountTokens },
    messagesRequest,
    proxyBase: anthropicProxyBase,
    validateTarget(target: ConfigNode, path: string): Issue[] {
      if (target.api_key !== undefined || target.custom_host !== undefined) return [];
      return [{ path: path ? `${path}.api_key` : 'api_key', rule: `is required for provider "${PROVIDER_ID}" (or set custom_host)` }];
    },
  };
}
