/**
 * A unified chat stream → the Messages event stream, one chat chunk at a time (nothing collected):
 *
 *   first chunk                  → message_start (id, model, empty content, usage so far), ping
 *   delta.content                → a text block: content_block_start, text_delta…
 *   content_blocks thinking,
 *   delta.reasoning_content      → a thinking block: thinking_delta… (signature_delta)
 *   tool_calls[i] with id/name   → a tool_use block: content_block_start, input_json_delta…
 *   a new kind of block          → content_block_stop of the open one first
 *   finish_reason, usage chunk   → remembered; at the end: content_block_stop, message_delta
 *                                  (stop_reason, usage), message_stop
 * The usage chunk comes after the finish chunk, so message_delta waits for it or for the end.
 * The chat stream's own error event is thrown as a StreamErrorEvent and a stream that ends without
 * a finish_reason as a StreamCutError: the endpoint's guard (stream-guard.ts) writes the `error` event.
 */
import { parseSse, StreamCutError, StreamErrorEvent } from '../../../core/index.js';
import { fromUsage, stopReason, type StopReason } from '../../../providers/anthropic/contract.js';
import { messageEvent } from './stream-guard.js';

type Obj = Record<string, unknown>;

interface ChatChunk {
  id?: string;
  model?: string;
  error?: unknown;
  usage?: Obj | null;
  choices?: { index?: number; delta?: Obj; finish_reason?: string | null }[];
}

type Open = { kind: 'text' | 'thinking' } | { kind: 'tool'; call: number } | undefined;

export async function* chatStreamToMessages(source: AsyncIterable<Uint8Array>, requestModel: string): AsyncGenerator<Uint8Array> {
  let started = false;
  let index = -1;
  let open: Open;
  let finish: string | null | undefined;
  let usage: Obj | undefined;
  let sawTool = false;

  const close = function* () {
    if (open) yield messageEvent('content_block_stop', { index });
    open = undefined;
  };
  const begin = function* (next: Exclude<Open, undefined>, block: Obj) {
    yield* close();
    index++;
    open = next;
    yield messageEvent('content_block_start', { index, content_block: block });
  };

  for await (const event of parseSse(source)) {
    if (event.data === '[DONE]') break;
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(event.data) as ChatChunk;
    } catch {
      continue;
    }
    if (chunk.error !== undefined && chunk.error !== null) throw new StreamErrorEvent(event.data);
    if (!started) {
      started = true;
      const message = {
        id: chunk.id ?? '', type: 'message', role: 'assistant', model: chunk.model ?? requestModel,
        content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
      };
      yield messageEvent('message_start', { message });
      yield messageEvent('ping', {});
    }
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};

    for (const piece of thinkingPieces(delta)) {
      if (open?.kind !== 'thinking') yield* begin({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
      if (piece.thinking) yield messageEvent('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece.thinking } });
      if (piece.signature) yield messageEvent('content_block_delta', { index, delta: { type: 'signature_delta', signature: piece.signature } });
    }
    const text = delta['content'];
    if (typeof text === 'string' && text !== '') {
      if (open?.kind !== 'text') yield* begin({ kind: 'text' }, { type: 'text', text: '' });
      yield messageEvent('content_block_delta', { index, delta: { type: 'text_delta', text } });
    }
    const calls = delta['tool_calls'];
    if (Array.isArray(calls)) {
      for (const call of calls as { index?: number; id?: string; function?: { name?: string; arguments?: string } }[]) {
        const callIndex = call.index ?? 0;
        if (!(open?.kind === 'tool' && open.call === callIndex)) {
          sawTool = true;
          yield* begin({ kind: 'tool', call: callIndex }, { type: 'tool_use', id: call.id ?? '', name: call.function?.name ?? '', input: {} });
        }
        const args = call.function?.arguments;
        if (typeof args === 'string' && args !== '') yield messageEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: args } });
      }
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (!started || !finish) throw new StreamCutError();
  yield* close();
  const stop: StopReason = sawTool && finish === 'stop' ? 'tool_use' : stopReason(finish);
  yield messageEvent('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: fromUsage(usage as Parameters<typeof fromUsage>[0]) });
  yield messageEvent('message_stop', {});
}

/** Thinking carried by a chat delta: the gateway's content_blocks, or a provider's reasoning_content. */
function thinkingPieces(delta: Obj): { thinking?: string; signature?: string }[] {
  const out: { thinking?: string; signature?: string }[] = [];
  const blocks = delta['content_blocks'];
  if (Array.isArray(blocks)) {
    for (const b of blocks as Obj[]) {
      if (b?.['type'] !== 'thinking') continue;
      const piece: { thinking?: string; signature?: string } = {};
      if (typeof b['thinking'] === 'string') piece.thinking = b['thinking'];
      if (typeof b['signature'] === 'string') piece.signature = b['signature'];
      out.push(piece);
    }
  }
  const reasoning = delta['reasoning_content'];
  if (typeof reasoning === 'string' && reasoning !== '') out.push({ thinking: reasoning });
  return out;
}
