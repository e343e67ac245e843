/**
 * Cohere v2 chat stream → unified `chat.completion.chunk` objects, one per provider event as it
 * arrives (never buffered):
 *   message-start      → the role chunk          content-delta   → a content delta
 *   tool-plan-delta    → a content delta          tool-call-start → a tool call (id, name, first arguments)
 *   tool-call-delta    → an arguments delta       message-end     → the finish chunk (+ a usage chunk
 *                                                                   when stream_options.include_usage)
 * content-start/end, tool-call-end and citation events carry nothing the unified format shows.
 * A message-end with finish_reason ERROR, or a stream that ends without message-end, throws: the
 * client sees an error event, never a made-up end.
 */
import { chunkFactory, Errors, parseSse, type ChatCompletionChunk } from '../../core/index.js';
import { finishReason, unifiedUsage, type CohereStreamEvent } from './wire.js';

export interface StreamOptions {
  model: string;
  provider: string;
  includeUsage: boolean;
  fallbackId: () => string;
}

export async function* cohereChatChunks(body: AsyncIterable<Uint8Array>, o: StreamOptions): AsyncGenerator<ChatCompletionChunk> {
  let make: ReturnType<typeof chunkFactory> | undefined;
  const chunk = () => (make ??= chunkFactory({ id: o.fallbackId(), model: o.model }));
  let toolIndex = -1;
  let ended = false;
  for await (const sse of parseSse(body)) {
    // Read on after message-end so the connection is released whole and can be reused.
    if (ended) continue;
    const event = parseEvent(sse.data, o.provider);
    if (!event) continue;
    const message = event.delta?.message;
    switch (event.type) {
      case 'message-start':
        make ??= chunkFactory({ id: event.id ?? o.fallbackId(), model: o.model });
        yield make({ role: 'assistant', content: '' });
        break;
      case 'content-delta':
        // Thinking blocks (type "thinking") are not part of the unified content.
        if (message?.content?.text) yield chunk()({ content: message.content.text });
        break;
      case 'tool-plan-delta':
        if (message?.tool_plan) yield chunk()({ content: message.tool_plan });
        break;
      case 'tool-call-start': {
        const call = message?.tool_calls;
        toolIndex++;
        yield chunk()({
          tool_calls: [{
            index: toolIndex,
            id: call?.id ?? `call_${toolIndex}`,
            type: 'function',
            function: { name: call?.function?.name ?? '', arguments: call?.function?.arguments ?? '' },
          }],
        });
        break;
      }
      case 'tool-call-delta': {
        const args = message?.tool_calls?.function?.arguments;
        if (args) yield chunk()({ tool_calls: [{ index: Math.max(toolIndex, 0), function: { arguments: args } }] });
        break;
      }
      case 'message-end': {
        const end = event.delta;
        if (end?.finish_reason?.toUpperCase() === 'ERROR' || end?.error) {
          throw Errors.upstream(500, end?.error || `provider ${o.provider} ended the answer with an error`, o.provider, 'api_error');
        }
        const finish = chunk()({}, finishReason(end?.finish_reason));
        yield finish;
        if (o.includeUsage) yield { ...finish, choices: [], usage: unifiedUsage(end?.usage) };
        ended = true;
        break;
      }
      default:
        break;
    }
  }
  if (!ended) throw Errors.badGateway(`provider ${o.provider} stream ended before message-end`, o.provider);
}

function parseEvent(data: string, provider: string): CohereStreamEvent | undefined {
  if (data === '' || data === '[DONE]') return undefined;
  try {
    return JSON.parse(data) as CohereStreamEvent;
  } catch {
    throw Errors.badGateway(`provider ${provider} sent a stream event that is not JSON`, provider);
  }
}
