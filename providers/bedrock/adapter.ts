/**
 * The Bedrock (cloudA) adapter: chat through Converse / ConverseStream, rerank through the agent
 * runtime's Rerank, and the Messages API natively for Claude models (claude-messages.ts), every request signed with SigV4 (core/cloud-auth/aws-sigv4.ts, as `bedrock`). Transforms live in their own files;
 * this one builds URLs and wires the endpoints.
 */
import { JsonPayload, signedAwsPost, type AdapterInput, type EndpointAdapter, type GatewayError, type ProviderAdapter, type UpstreamRequest } from '../../core/index.js';
import { claudeMessagesEndpoints } from './claude-messages.js';
import { toConverseRequest } from './chat-request.js';
import { fromConverseResponse } from './chat-response.js';
import { converseStreamToSse } from './chat-stream.js';
import { bedrockHttpError } from './errors.js';
import { fromBedrockRerank, toBedrockRerank } from './rerank.js';
import { agentRuntimeBase, credentialsOf, PROVIDER_ID, regionOf, runtimeBase, validateBedrockTarget } from './target.js';
import type { ConverseResponse, RerankResponse } from './wire.js';

export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

/**
 * An endpoint adapter that also names the content type of its streamed answers (ConverseStream is
 * not SSE) and reads the error type from the answer's headers (`x-amzn-errortype`).
 */
export interface BedrockEndpointAdapter extends EndpointAdapter {
  readonly streamContentType?: string;
  error(status: number, body: Uint8Array, input: AdapterInput, headers?: Readonly<Record<string, string | undefined>>): GatewayError;
}

/** Path segments as AWS encodes them: everything but unreserved characters (model ARNs hold ':' and '/'). */
export function encodePathSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function modelOf(input: AdapterInput): string {
  return String(input.body['model']);
}

/** Bedrock runtime and agent runtime both sign as `bedrock`. */
export const SIGNING_SERVICE = 'bedrock';

function sign(input: AdapterInput, url: string, accept: string, body: string): Promise<UpstreamRequest> {
  return signedAwsPost({
    url,
    service: SIGNING_SERVICE,
    headers: { 'content-type': 'application/json', accept },
    body,
    region: regionOf(input.target),
    credentials: credentialsOf(input.target),
  });
}

const errorOf: BedrockEndpointAdapter['error'] = (status, body, _input, headers) => bedrockHttpError(status, body, headers);

/** A runtime operation on the body's model: `/model/{modelId}/{operation}`. */
function modelUrl(input: AdapterInput, operation: string): string {
  return `${runtimeBase(input.target)}/model/${encodePathSegment(modelOf(input))}/${operation}`;
}

const chat: BedrockEndpointAdapter = {
  streamContentType: EVENT_STREAM_CONTENT_TYPE,
  request(input) {
    const url = modelUrl(input, input.stream ? 'converse-stream' : 'converse');
    return sign(input, url, input.stream ? EVENT_STREAM_CONTENT_TYPE : 'application/json', JSON.stringify(toConverseRequest(input.body)));
  },
  response(body, input) {
    return JsonPayload.of(fromConverseResponse(body.value as ConverseResponse, modelOf(input)));
  },
  stream(body, input) {
    const options = input.body['stream_options'] as { include_usage?: unknown } | null | undefined;
    return converseStreamToSse(body, { model: modelOf(input), includeUsage: options?.include_usage === true });
  },
  error: errorOf,
};

const rerank: BedrockEndpointAdapter = {
  request(input) {
    const url = `${agentRuntimeBase(input.target)}/rerank`;
    return sign(input, url, 'application/json', JSON.stringify(toBedrockRerank(input.body, regionOf(input.target))));
  },
  response(body, input) {
    return JsonPayload.of(fromBedrockRerank(body.value as RerankResponse, input.body));
  },
  error: errorOf,
};

const { messages, countTokens } = claudeMessagesEndpoints(sign, modelUrl, errorOf, EVENT_STREAM_CONTENT_TYPE);

export function createBedrockAdapter(): ProviderAdapter {
  return {
    id: PROVIDER_ID,
    endpoints: { chatComplete: chat, rerank, messages, countTokens },
    validateTarget: validateBedrockTarget,
  };
}
