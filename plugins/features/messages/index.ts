/**
 * feature.messages: the Anthropic Messages API in front of every provider.
 *
 *   POST /v1/messages               endpoint `messages`: the kernel's inference lifecycle (routing,
 *                                   retries, cache, guardrails, limits, logs) with a Messages body.
 *                                   A provider whose adapter speaks Messages (anthropic) gets the body
 *                                   as it is and its answer and stream come back as they are; any
 *                                   other provider is reached through its chat adapter (the endpoint's
 *                                   bridge: to-chat.ts, from-chat.ts, stream-translate.ts).
 *   POST /v1/messages/count_tokens  endpoint `countTokens`: native when the request's one provider
 *                                   counts this model (anthropic; Claude on Bedrock), else an estimate (count-estimate.ts) answered
 *                                   with `x-gw-token-count: estimate`.
 * Errors on both routes are answered in Anthropic's shape (errors.ts); streams are guarded by the
 * Messages rules (stream-guard.ts: whole when they end with message_stop, else an `error` event).
 */
import {
  Errors, JsonPayload, objectBody, Services, Stage,
  type EndpointDef, type Plugin, type PluginApi,
} from '../../../core/index.js';
import { estimateInputTokens } from './count-estimate.js';
import { asAnthropicError } from './errors.js';
import { toMessage, type ChatAnswer } from './from-chat.js';
import { countTokensIssue, messagesIssue } from './schemas.js';
import { guardMessagesStream } from './stream-guard.js';
import { chatStreamToMessages } from './stream-translate.js';
import { toChatBody } from './to-chat.js';

export const MESSAGES_PATH = '/v1/messages';
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** The chat endpoint the bridge rides on, as provider adapters know it (its body was checked here). */
const CHAT: EndpointDef = { id: 'chatComplete', validate: () => [], streamable: true, chunkObject: 'chat.completion.chunk' };

const modelOf = (body: Record<string, unknown>) => String(body['model']);

export const MESSAGES_ENDPOINT: EndpointDef = {
  id: 'messages',
  validate: (body) => {
    const issue = messagesIssue(body as Record<string, unknown>);
    return issue ? [issue] : [];
  },
  streamable: true,
  // message_delta carries the usage of every Messages stream.
  streamUsage: true,
  guardStream: guardMessagesStream,
  bridge: {
    via: CHAT,
    request: (attempt, provider) => {
      // Checked again: a target's params (override_params ...) may have changed the client's body.
      const issue = attempt.body === attempt.ctx.request.body ? undefined : messagesIssue(attempt.body);
      if (issue) throw Errors.invalidBody(issue.path, issue.rule);
      return toChatBody(attempt.body, provider.strictChat === true);
    },
    response: (answer, attempt) => JsonPayload.of(toMessage(answer.value as ChatAnswer, modelOf(attempt.body))),
    stream: (source, attempt) => chatStreamToMessages(source, modelOf(attempt.body)),
  },
};

export const COUNT_TOKENS_ENDPOINT: EndpointDef = {
  id: 'countTokens',
  validate: (body) => {
    const issue = countTokensIssue(body as Record<string, unknown>);
    return issue ? [issue] : [];
  },
  streamable: false,
};

export default class MessagesPlugin implements Plugin {
  static readonly manifest = {
    id: 'feature.messages',
    description: 'Anthropic Messages API (/v1/messages, count_tokens) for every provider: native or through chat',
  };

  apply(api: PluginApi): void {
    const kernel = api.services.get(Services.Kernel);
    const { providers, endpoints, routes } = api.registries;
    const run = kernel.runInference.bind(kernel);

    endpoints.register(MESSAGES_ENDPOINT.id, MESSAGES_ENDPOINT, api.id);
    endpoints.register(COUNT_TOKENS_ENDPOINT.id, COUNT_TOKENS_ENDPOINT, api.id);
    routes.add({ method: 'POST', path: MESSAGES_PATH, body: 'json', endpoint: MESSAGES_ENDPOINT, handler: run });
    routes.add({
      method: 'POST', path: COUNT_TOKENS_PATH, body: 'json', endpoint: COUNT_TOKENS_ENDPOINT,
      handler: async (ctx) => {
        const body = objectBody(ctx);
        const issue = countTokensIssue(body);
        if (issue) throw Errors.invalidBody(issue.path, issue.rule);
        // One provider that counts: its own count, through the lifecycle (retries, logs ...).
        const config = await kernel.resolveConfig(ctx);
        const provider = config.targets?.length ? undefined : config.provider;
        const counter = typeof provider === 'string' ? providers.get(provider)?.endpoints['countTokens'] : undefined;
        // An adapter may count only some models (Claude on Bedrock): the others get the estimate.
        if (counter && counter.accepts?.(body) !== false) return run(ctx);
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-gw-token-count': 'estimate' },
          json: JsonPayload.of({ input_tokens: estimateInputTokens(body) }),
        };
      },
    });

    // Every error of these routes — the key check's 401 and a limit's 429 included — in Anthropic's shape.
    api.hooks.respond.tap({ name: api.id, stage: Stage.LATE }, (response, ctx) =>
      ctx.route.path === MESSAGES_PATH || ctx.route.path === COUNT_TOKENS_PATH ? asAnthropicError(response) : response);
  }
}
