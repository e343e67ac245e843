/**
 * `previous_response_id`: the conversation so far, oldest first — for every stored response of the
 * chain, its own input items then its output as input items (assistant text, function calls;
 * reasoning and built-in tool items are provider-specific and left out). Instructions of earlier
 * responses are not carried over (as OpenAI does). The walk stops at `maxDepth` links (400).
 */
import { Errors } from '../../../core/index.js';
import type { Owner, ResponseStore } from './response-store.js';

type Item = Record<string, unknown>;

/** The conversation before a response, or undefined when `previousId` is not a stored response the caller may read. */
export async function conversationBefore(store: ResponseStore, reader: Owner, previousId: string, maxDepth: number): Promise<Item[] | undefined> {
  const segments: Item[][] = [];
  let id: string | null = previousId;
  while (id !== null) {
    if (segments.length >= maxDepth) throw Errors.invalidBody('previous_response_id', `starts a chain of more than ${maxDepth} responses`);
    const record = await store.get(reader, id);
    if (!record) {
      if (segments.length === 0) return undefined;
      break; // an older link was deleted: the conversation starts after it
    }
    segments.push([...record.input, ...outputAsInput(record.response.output)]);
    id = record.previousResponseId;
  }
  return segments.reverse().flat();
}

export function outputAsInput(output: readonly Item[]): Item[] {
  const items: Item[] = [];
  for (const item of output) {
    if (item['type'] === 'message' && Array.isArray(item['content'])) {
      const text = (item['content'] as Item[])
        .map((part) => (part['type'] === 'output_text' ? part['text'] : part['type'] === 'refusal' ? part['refusal'] : ''))
        .join('');
      items.push({ role: 'assistant', content: text });
    } else if (item['type'] === 'function_call') {
      items.push({ type: 'function_call', call_id: item['call_id'], name: item['name'], arguments: item['arguments'] });
    }
  }
  return items;
}
