/**
 * The official Anthropic SDK behind the small interface the lifecycle tests use (messages-client.ts
 * has the same one for wire-level checks): create and stream with the answer's headers, and the
 * SDK's APIError turned into a MessagesApiError (status, parsed body, the events seen before it).
 */
import Anthropic from '@anthropic-ai/sdk';
import { MessagesApiError, type MessagesClient, type StreamResult } from './messages-client.js';

type Obj = Record<string, any>;

export function sdkClient(baseURL: string, defaultHeaders: Record<string, string>): MessagesClient {
  const sdk = new Anthropic({ apiKey: 'sk-ant-client', baseURL, maxRetries: 0, defaultHeaders });
  const asOurs = (e: unknown, events?: StreamResult['events']): never => {
    if (!(e instanceof Anthropic.APIError)) throw e;
    const error = new MessagesApiError(e.status, e.error as Obj | undefined) as MessagesApiError & { events?: unknown };
    error.events = events;
    throw error;
  };
  return {
    async create(body) {
      try {
        const { data, response } = await sdk.messages.create(body as Anthropic.MessageCreateParamsNonStreaming).withResponse();
        return { message: data as unknown as Obj, headers: response.headers, status: response.status };
      } catch (e) {
        return asOurs(e);
      }
    },
    async stream(body) {
      const events: StreamResult['events'] = [];
      try {
        const stream = sdk.messages.stream(body as Anthropic.MessageCreateParamsNonStreaming);
        stream.on('streamEvent', (event) => void events.push({ event: event.type, data: event as unknown as Obj }));
        const { response } = await stream.withResponse();
        const message = await stream.finalMessage();
        return { events, message: message as unknown as Obj, headers: response.headers };
      } catch (e) {
        return asOurs(e, events);
      }
    },
    async countTokens(body) {
      try {
        const { data, response } = await sdk.messages.countTokens(body as Anthropic.MessageCountTokensParams).withResponse();
        return { input_tokens: data.input_tokens, headers: response.headers };
      } catch (e) {
        return asOurs(e);
      }
    },
  };
}
