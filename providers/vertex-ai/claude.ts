/**
 * Claude on Vertex AI: the Anthropic Messages API behind `rawPredict` / `streamRawPredict`.
 * The Anthropic transforms are not repeated here: the `anthropic` adapter (looked up at request
 * time) builds the Messages body and reads answers, streams and errors; this file only moves the
 * call to Vertex — URL `.../publishers/anthropic/models/{model}:rawPredict`, Bearer token instead of
 * x-api-key, body without `model` and with `anthropic_version: vertex-2023-10-16`. The anthropic
 * transforms name the target's provider (`vertex-ai`) in answers and errors.
 */
import {
  Errors, GatewayError,
  type AdapterInput, type CompleteEndpointAdapter, type EndpointAdapter, type ProviderAdapter, type UpstreamRequest,
} from '../../core/index.js';
import { fromGoogleError, googleErrorOf, parseJsonBytes } from '../gemini-common/errors.js';
import { checkedModel, modelUrl, PROVIDER_ID } from './target.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** What the anthropic provider may offer beyond the endpoint: the body without a serialise/parse round trip. */
interface MessagesBuilder {
  messagesRequest?(input: AdapterInput): Record<string, unknown>;
}

export function isClaudeModel(model: unknown): boolean {
  return typeof model === 'string' && model.startsWith('claude');
}

export function claudeEndpoint(
  lookup: () => ProviderAdapter | undefined,
  authorization: (input: AdapterInput) => Promise<Record<string, string>>,
): CompleteEndpointAdapter {
  // Registries are frozen after boot: the first successful lookup holds for the gateway's life.
  let anthropic: { endpoint: EndpointAdapter; builder: MessagesBuilder } | undefined;
  const messages = () => {
    if (anthropic) return anthropic;
    const adapter = lookup();
    const endpoint = adapter?.endpoints['chatComplete'];
    if (!adapter || !endpoint) {
      throw Errors.unavailable(`${PROVIDER_ID}: Claude models need the provider.anthropic plugin, which is not loaded`);
    }
    return (anthropic = { endpoint, builder: adapter as MessagesBuilder });
  };

  return {
    async request(input): Promise<UpstreamRequest> {
      const model = checkedModel(input.body['model']);
      const { model: _dropped, ...rest } = await messagesBody(messages(), input);
      const headers = { 'content-type': 'application/json', ...(await authorization(input)) };
      return {
        url: modelUrl(input.target, 'anthropic', model, input.stream ? 'streamRawPredict' : 'rawPredict'),
        method: 'POST',
        headers,
        body: JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }),
      };
    },
    response(body, input) {
      const { endpoint } = messages();
      return endpoint.response ? endpoint.response(body, input) : body;
    },
    stream(body, input) {
      const { endpoint } = messages();
      return endpoint.stream ? endpoint.stream(body, input) : body;
    },
    error(status, body, input, headers) {
      // Vertex's own front end (auth, quota, unknown model) answers in Google's form; the model in Anthropic's.
      const google = googleErrorOf(parseJsonBytes(body));
      if (google) return fromGoogleError(status, google, PROVIDER_ID);
      const { endpoint } = messages();
      return asOurs(endpoint.error?.(status, body, input, headers) ?? Errors.upstream(status, `provider ${PROVIDER_ID} answered ${status}`, PROVIDER_ID));
    },
  };
}

async function messagesBody(
  anthropic: { endpoint: EndpointAdapter; builder: MessagesBuilder }, input: AdapterInput,
): Promise<Record<string, unknown>> {
  if (anthropic.builder.messagesRequest) return anthropic.builder.messagesRequest(input);
  const built = await anthropic.endpoint.request(input);
  const raw = built.body;
  if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) throw new Error('the anthropic adapter built no JSON body');
  return JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw)) as Record<string, unknown>;
}

/** The anthropic adapter's error, reported as this provider's. */
function asOurs<E>(error: E): E | GatewayError {
  if (!(error instanceof GatewayError) || error.provider === PROVIDER_ID) return error;
  return new GatewayError({
    status: error.status, message: error.message, type: error.type, code: error.code, param: error.param,
    provider: PROVIDER_ID, headers: error.headers, extra: error.extra,
  });
}

/**
 * The Messages API itself for Claude on Vertex (feature.messages' `messages` endpoint): the client's
 * body with `model` moved to the URL and `anthropic_version: vertex-2023-10-16`; answers and streams
 * come back as they are. Other models (Gemini) are not taken: the endpoint reaches them through chat.
 */
export function claudeMessagesEndpoint(
  lookup: () => ProviderAdapter | undefined,
  authorization: (input: AdapterInput) => Promise<Record<string, string>>,
): EndpointAdapter {
  const errors = claudeEndpoint(lookup, authorization);
  return {
    accepts: (body) => isClaudeModel(body['model']),
    async request(input): Promise<UpstreamRequest> {
      const model = checkedModel(input.body['model']);
      const { model: _dropped, ...rest } = input.body;
      return {
        url: modelUrl(input.target, 'anthropic', model, input.stream ? 'streamRawPredict' : 'rawPredict'),
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await authorization(input)) },
        body: JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }),
      };
    },
    response(body) {
      const value = body.value as { type?: unknown; content?: unknown } | null;
      if (value?.type !== 'message' || !Array.isArray(value.content)) throw new Error('not a Messages API message');
      return body;
    },
    error: (status, body, input, headers) => errors.error(status, body, input, headers),
  };
}
