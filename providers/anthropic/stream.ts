/**
 * Anthropic stream events → unified `chat.completion.chunk` SSE events, one provider event at a
 * time (nothing is collected): the first chunk leaves as soon as `message_start` arrives.
 *
 *   message_start                  → a role chunk (id and model as the provider reports them)
 *   content_block_start tool_use   → a tool call chunk: index, id, name, arguments ""
 *   text_delta                     → delta.content
 *   input_json_delta               → delta.tool_calls[].function.arguments
 *   thinking / signature_delta,
 *   redacted_thinking              → delta.content_blocks (only with strict compliance off)
 *   message_delta                  → the one chunk carrying finish_reason
 *   message_stop                   → with stream_options.include_usage, a usage chunk with no choices
 *   error                          → a thrown GatewayError (the upstream plugin ends the stream with it)
 *   ping, unknown events           → nothing
 * A stream that ends without message_stop was cut: it fails rather than look complete.
 * `[DONE]` is not written here: the upstream plugin's guard adds it.
 */
import { chunkFactory, Errors, sseData, type ChatCompletionChunk, type SseEvent } from '../../core/index.js';
import { fromErrorEvent } from './errors.js';
import { finishReason, toUsage } from './response.js';
import type { StreamEvent, WireUsage } from './wire.js';

export interface StreamSettings {
  provider: string;
  /** Strict compliance drops thinking output. */
  strict: boolean;
  includeUsage: boolean;
}

type Chunk = ReturnType<typeof chunkFactory>;

export async function* translateStream(events: AsyncIterable<SseEvent>, settings: StreamSettings): AsyncGenerator<Uint8Array> {
  const { provider, strict } = settings;
  let chunk: Chunk | undefined;
  const tokens: WireUsage = {};
  /** Anthropic block index → OpenAI tool call index (text and thinking blocks take no tool index). */
  const toolIndexes: number[] = [];
  let toolCount = 0;
  let finished = false;
  let stopped = false;

  for await (const sse of events) {
    if (sse.event === 'ping') continue;
    const event = JSON.parse(sse.data) as StreamEvent;
    if (event.type === 'error') throw fromErrorEvent(event.error, provider);
    if (event.type === 'message_start') {
      const { id, model, usage } = event.message;
      chunk = chunkFactory({ id, model, provider });
      addUsage(tokens, usage);
      yield sseData(chunk({ role: 'assistant', content: '' }));
      continue;
    }
    if (event.type === 'ping' || event.type === 'content_block_stop') continue;
    if (!chunk) throw Errors.badGateway(`provider ${provider} stream sent ${event.type} before message_start`, provider);

    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          const index = (toolIndexes[event.index] = toolCount++);
          const input = block.input as Record<string, unknown> | undefined;
          const args = input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
          yield sseData(chunk({ tool_calls: [{ index, id: block.id as string, type: 'function', function: { name: block.name as string, arguments: args } }] }));
        } else if (block.type === 'text') {
          if (block.text) yield sseData(chunk({ content: block.text as string }));
        } else if (!strict && block.type === 'thinking') {
          if (block.thinking) yield sseData(chunk({ content_blocks: [{ index: event.index, type: 'thinking', thinking: block.thinking }] }));
        } else if (!strict && block.type === 'redacted_thinking') {
          yield sseData(chunk({ content_blocks: [{ index: event.index, type: 'redacted_thinking', data: block.data }] }));
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          yield sseData(chunk({ content: delta.text }));
        } else if (delta.type === 'input_json_delta') {
          const index = toolIndexes[event.index];
          if (index !== undefined && delta.partial_json !== '') {
            yield sseData(chunk({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] }));
          }
        } else if (strict) {
          break;
        } else if (delta.type === 'thinking_delta') {
          yield sseData(chunk({ content_blocks: [{ index: event.index, type: 'thinking', thinking: delta.thinking }] }));
        } else if (delta.type === 'signature_delta') {
          yield sseData(chunk({ content_blocks: [{ index: event.index, type: 'thinking', signature: delta.signature }] }));
        }
        break;
      }
      case 'message_delta':
        addUsage(tokens, event.usage);
        if (!finished && event.delta?.stop_reason !== undefined) {
          finished = true;
          yield sseData(chunk({}, finishReason(event.delta.stop_reason)));
        }
        break;
      case 'message_stop':
        if (stopped) break;
        stopped = true;
        if (!finished) {
          finished = true;
          yield sseData(chunk({}, 'stop'));
        }
        if (settings.includeUsage) yield sseData(usageChunk(chunk, tokens));
        break;
    }
  }
  if (!stopped) throw Errors.badGateway(`provider ${provider} stream ended before message_stop`, provider);
}

/** Later usage reports carry running totals: the latest value of each field wins. */
function addUsage(into: WireUsage, u: WireUsage | undefined): void {
  if (!u) return;
  if (typeof u.input_tokens === 'number') into.input_tokens = u.input_tokens;
  if (typeof u.output_tokens === 'number') into.output_tokens = u.output_tokens;
  if (typeof u.cache_read_input_tokens === 'number') into.cache_read_input_tokens = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === 'number') into.cache_creation_input_tokens = u.cache_creation_input_tokens;
}

/** OpenAI's include_usage chunk: the totals, with an empty choices array. */
function usageChunk(chunk: Chunk, tokens: WireUsage): ChatCompletionChunk {
  const last = chunk({}, null, toUsage(tokens));
  last.choices = [];
  return last;
}
