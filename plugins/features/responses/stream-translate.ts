/**
 * A streamed chat completion → the Responses event stream, as OpenAI sends it:
 *   response.created, response.in_progress,
 *   per text:      response.output_item.added, response.content_part.added, response.output_text.delta…,
 *                  response.output_text.done, response.content_part.done, response.output_item.done
 *   per tool call: response.output_item.added, response.function_call_arguments.delta…,
 *                  response.function_call_arguments.done, response.output_item.done
 *   then response.completed | response.incomplete, or error + response.failed when the provider fails.
 * Each event is written as soon as its chat chunk arrives. `finish` receives the final Response
 * object before the last event is written (the stored record is up to date when the client sees it).
 */
import { parseSse } from '../../../core/index.js';
import { toUsage, type ChatCompletionLike } from './from-chat.js';
import { failedResponse, newId, outputText, type OutputItem, type ResponseObject } from './response-object.js';

const encoder = new TextEncoder();

export class EventWriter {
  #sequence = 0;

  encode(type: string, data: Record<string, unknown>): Uint8Array {
    return encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.#sequence++, ...data })}\n\n`);
  }
}

interface ChatChunk {
  model?: string;
  error?: { message?: string; code?: string | null };
  usage?: ChatCompletionLike['usage'] | null;
  choices?: { delta?: { content?: string | null; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason?: string | null }[];
}

export const CLIENT_GONE = 'the client closed the stream before the response completed';

export async function* translateChatStream(
  chat: AsyncIterable<Uint8Array>, pending: ResponseObject, finish: (final: ResponseObject) => Promise<void>,
): AsyncGenerator<Uint8Array> {
  const events = new EventWriter();
  const output: OutputItem[] = [];
  let message: { item: OutputItem; index: number; text: string } | undefined;
  const calls = new Map<number, { item: OutputItem; index: number }>();
  let finishReason: string | null | undefined;
  let usage: ChatCompletionLike['usage'] | undefined;
  let model: string | undefined;
  let failure: { code: string | null; message: string } | undefined;
  let finished = false;
  try {
    yield events.encode('response.created', { response: pending });
    yield events.encode('response.in_progress', { response: pending });
    try {
      for await (const event of parseSse(chat)) {
        if (event.data === '[DONE]') break;
        let chunk: ChatChunk;
        try {
          chunk = JSON.parse(event.data) as ChatChunk;
        } catch {
          continue;
        }
        if (chunk.error) {
          failure = { code: chunk.error.code ?? null, message: chunk.error.message ?? 'the provider stream failed' };
          break;
        }
        model ??= chunk.model;
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const content = choice.delta?.content;
        if (typeof content === 'string' && content !== '') {
          if (!message) {
            const item: OutputItem = { type: 'message', id: newId('msg'), status: 'in_progress', role: 'assistant', content: [] };
            message = { item, index: output.push(item) - 1, text: '' };
            yield events.encode('response.output_item.added', { output_index: message.index, item: { ...item } });
            yield events.encode('response.content_part.added', {
              item_id: item['id'], output_index: message.index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] },
            });
          }
          message.text += content;
          yield events.encode('response.output_text.delta', { item_id: message.item['id'], output_index: message.index, content_index: 0, delta: content });
        }
        for (const delta of choice.delta?.tool_calls ?? []) {
          let call = calls.get(delta.index);
          if (!call) {
            const item: OutputItem = {
              type: 'function_call', id: newId('fc'), call_id: delta.id ?? newId('call'), name: delta.function?.name ?? '', arguments: '', status: 'in_progress',
            };
            call = { item, index: output.push(item) - 1 };
            calls.set(delta.index, call);
            yield events.encode('response.output_item.added', { output_index: call.index, item: { ...item } });
          }
          const piece = delta.function?.arguments;
          if (piece) {
            call.item['arguments'] += piece;
            yield events.encode('response.function_call_arguments.delta', { item_id: call.item['id'], output_index: call.index, delta: piece });
          }
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    } catch (e) {
      failure = { code: null, message: `the provider stream failed: ${(e as Error).message ?? String(e)}` };
    }

    if (message) {
      const part = { type: 'output_text', text: message.text, annotations: [] };
      message.item['content'] = [part];
      message.item['status'] = 'completed';
      const ids = { item_id: message.item['id'], output_index: message.index, content_index: 0 };
      yield events.encode('response.output_text.done', { ...ids, text: message.text });
      yield events.encode('response.content_part.done', { ...ids, part });
      yield events.encode('response.output_item.done', { output_index: message.index, item: message.item });
    }
    for (const call of calls.values()) {
      call.item['status'] = 'completed';
      yield events.encode('response.function_call_arguments.done', { item_id: call.item['id'], output_index: call.index, arguments: call.item['arguments'] });
      yield events.encode('response.output_item.done', { output_index: call.index, item: call.item });
    }

    const reason = finishReason === 'length' ? 'max_output_tokens' : finishReason === 'content_filter' ? 'content_filter' : undefined;
    const done: ResponseObject = {
      ...pending,
      model: model ?? pending.model,
      output,
      output_text: outputText(output),
      usage: usage ? toUsage(usage) : null,
      status: reason ? 'incomplete' : 'completed',
      incomplete_details: reason ? { reason } : null,
    };
    const final = failure ? failedResponse(done, failure) : done;
    finished = true;
    await finish(final);
    if (failure) yield events.encode('error', { code: failure.code, message: failure.message, param: null });
    yield events.encode(`response.${final.status === 'failed' ? 'failed' : final.status === 'incomplete' ? 'incomplete' : 'completed'}`, { response: final });
  } finally {
    if (!finished) await finish(failedResponse({ ...pending, output, output_text: outputText(output) }, { code: 'client_closed', message: CLIENT_GONE }));
  }
}
