/**
 * The Messages API natively for Claude on Bedrock (feature.messages' `messages` and `countTokens`
 * endpoints), so that Anthropic-only features (thinking signatures, cache_control, citations, server
 * tools) reach the model untranslated:
 *   messages     POST /model/{id}/invoke (invoke-with-response-stream for streams): the client's body
 *                without `model` and `stream`, with `anthropic_version: bedrock-2023-05-31`; the
 *                client's `anthropic-beta` header as the body's `anthropic_beta` array (Bedrock reads
 *                betas from the body). Answers come back as they are; streams are unframed (invoke-stream.ts).
 *   countTokens  POST /model/{id}/count-tokens with `{input: {invokeModel: {body: <base64 of that body>}}}`
 *                → `{inputTokens}`, answered as `{input_tokens}`.
 * Other Bedrock models are not taken (`accepts`): Messages reaches them through chat (Converse).
 */
import { JsonPayload, type AdapterInput, type UpstreamRequest } from '../../core/index.js';
import type { BedrockEndpointAdapter } from './adapter.js';
import { isBedrockClaude } from './claude-model.js';
import { invokeStreamToMessagesSse } from './invoke-stream.js';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** InvokeModel for Claude needs `max_tokens`; count_tokens bodies have none, and it does not change the count. */
const COUNT_MAX_TOKENS = 1;

type Sign = (input: AdapterInput, url: string, accept: string, body: string) => Promise<UpstreamRequest>;
type ModelUrl = (input: AdapterInput, operation: string) => string;

/** The InvokeModel body of a Messages body. */
export function invokeBody(input: AdapterInput): Record<string, unknown> {
  const { model: _model, stream: _stream, ...rest } = input.body;
  const body: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...rest };
  const betas = betasOf(input.attempt.ctx.request.headers['anthropic-beta']);
  if (betas.length > 0) body['anthropic_beta'] = betas;
  return body;
}

function betasOf(header: string | undefined): string[] {
  return (header ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
}

export function claudeMessagesEndpoints(
  sign: Sign, modelUrl: ModelUrl, error: BedrockEndpointAdapter['error'], streamContentType: string,
): { messages: BedrockEndpointAdapter; countTokens: BedrockEndpointAdapter } {
  const accepts = (body: Record<string, unknown>) => isBedrockClaude(body['model']);
  const messages: BedrockEndpointAdapter = {
    accepts,
    streamContentType,
    request(input) {
      const url = modelUrl(input, input.stream ? 'invoke-with-response-stream' : 'invoke');
      return sign(input, url, input.stream ? streamContentType : 'application/json', JSON.stringify(invokeBody(input)));
    },
    response(body) {
      const value = body.value as { type?: unknown; content?: unknown } | null;
      if (value?.type !== 'message' || !Array.isArray(value.content)) throw new Error('not a Messages API message');
      return body;
    },
    stream: (body) => invokeStreamToMessagesSse(body),
    error,
  };
  const countTokens: BedrockEndpointAdapter = {
    accepts,
    request(input) {
      const invoke = { max_tokens: COUNT_MAX_TOKENS, ...invokeBody(input) };
      const body = { input: { invokeModel: { body: Buffer.from(JSON.stringify(invoke), 'utf8').toString('base64') } } };
      return sign(input, modelUrl(input, 'count-tokens'), 'application/json', JSON.stringify(body));
    },
    response(body) {
      const value = body.value as { inputTokens?: unknown } | null;
      if (typeof value?.inputTokens !== 'number') throw new Error('no inputTokens in the CountTokens answer');
      return JsonPayload.of({ input_tokens: value.inputTokens });
    },
    error,
  };
  return { messages, countTokens };
}
