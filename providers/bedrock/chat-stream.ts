/**
 * ConverseStream event stream → unified `chat.completion.chunk` SSE events, one per provider event
 * as it arrives (never buffered):
 *   messageStart → role chunk;  contentBlockStart(toolUse) → tool call id + name;
 *   contentBlockDelta → text or tool-argument delta;  messageStop → the one finish_reason chunk;
 *   metadata → a usage chunk with empty choices, when the client asked (stream_options.include_usage);
 *   exception / error frames → a thrown GatewayError (the upstream guard turns it into an error event).
 * The guard adds `data: [DONE]`; a stream that ends before messageStop is a failure, not a whole answer.
 */
import { randomUUID } from 'node:crypto';
import { chunkFactory, Errors, sseData, type ChatCompletionChunk, type Usage } from '../../core/index.js';
import { bedrockStreamError, bedrockStreamException } from './errors.js';
import { eventStreamMessages, headerString, payloadJson, type EventMessage } from './event-frames.js';
import { finishReason } from './stop-reason.js';
import { PROVIDER_ID } from './target.js';
import { toUsage } from './usage.js';
import type { ContentBlockDeltaEvent, ContentBlockStartEvent, MessageStopEvent, MetadataEvent } from './wire.js';

export interface StreamInit {
  model: string;
  includeUsage: boolean;
}

export async function* converseStreamToSse(source: AsyncIterable<Uint8Array>, init: StreamInit): AsyncGenerator<Uint8Array> {
  const id = `chatcmpl-${randomUUID()}`;
  const chunk = chunkFactory({ id, model: init.model, provider: PROVIDER_ID });
  // Converse numbers content blocks (text and tool use together); OpenAI numbers tool calls alone.
  const toolIndexByBlock = new Map<number, number>();
  let stopped = false;
  for await (const message of eventStreamMessages(source)) {
    const eventType = eventTypeOf(message);
    switch (eventType) {
      case 'messageStart':
        yield sseData(chunk({ role: 'assistant', content: '' }));
        break;
      case 'contentBlockStart': {
        const event = payloadJson(message) as ContentBlockStartEvent;
        const tool = event.start?.toolUse;
        if (!tool) break;
        const index = toolIndexByBlock.size;
        toolIndexByBlock.set(event.contentBlockIndex, index);
        yield sseData(chunk({ tool_calls: [{ index, id: tool.toolUseId, type: 'function', function: { name: tool.name, arguments: '' } }] }));
        break;
      }
      case 'contentBlockDelta': {
        const event = payloadJson(message) as ContentBlockDeltaEvent;
        const delta = event.delta;
        if (typeof delta?.text === 'string') {
          if (delta.text !== '') yield sseData(chunk({ content: delta.text }));
        } else if (typeof delta?.toolUse?.input === 'string') {
          const index = toolIndexByBlock.get(event.contentBlockIndex);
          if (index !== undefined) yield sseData(chunk({ tool_calls: [{ index, function: { arguments: delta.toolUse.input } }] }));
        }
        break;
      }
      case 'messageStop': {
        const event = payloadJson(message) as MessageStopEvent;
        stopped = true;
        yield sseData(chunk({}, finishReason(event.stopReason)));
        break;
      }
      case 'metadata':
        if (init.includeUsage) yield sseData(usageChunk(chunk({}), toUsage((payloadJson(message) as MetadataEvent).usage)));
        break;
      default:
        // contentBlockStop, and events added after this adapter was written, carry nothing to translate.
        break;
    }
  }
  if (!stopped) throw Errors.badGateway(`provider ${PROVIDER_ID} stream ended before messageStop`, PROVIDER_ID);
}

/** The event name of an `event` frame; exception and error frames throw. */
function eventTypeOf(message: EventMessage): string | undefined {
  const messageType = headerString(message, ':message-type');
  if (messageType === 'event') return headerString(message, ':event-type');
  if (messageType === 'exception') {
    let payload: unknown;
    try {
      payload = payloadJson(message);
    } catch {
      payload = undefined;
    }
    throw bedrockStreamException(headerString(message, ':exception-type') ?? 'internalServerException', payload);
  }
  if (messageType === 'error') {
    throw bedrockStreamError(headerString(message, ':error-code') ?? '', headerString(message, ':error-message') ?? '');
  }
  throw Errors.badGateway(`provider ${PROVIDER_ID} sent an event-stream frame of unknown message type "${messageType}"`, PROVIDER_ID);
}

/** OpenAI's include_usage chunk: the usage, no choices. */
function usageChunk(base: ChatCompletionChunk, u: Usage): ChatCompletionChunk {
  return { ...base, choices: [], usage: u };
}
