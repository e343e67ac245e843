/**
 * A unified chat completion → a Message. Content blocks in the order Anthropic gives them: thinking
 * (from `content_blocks`, or a provider's `reasoning_content`), text, then one tool_use per tool call
 * (arguments parsed back into `input`); finish_reason → stop_reason (the adapter's table, inverted);
 * usage in Anthropic's terms (cached prompt tokens as cache reads). The chat id and model are kept.
 */
import { fromUsage, stopReason, type ContentBlock, type Message } from '../../../providers/anthropic/contract.js';

type Obj = Record<string, unknown>;

export interface ChatAnswer {
  id?: string;
  model?: string;
  choices?: { message?: Obj; finish_reason?: string | null }[];
  usage?: Obj | null;
}

export function toMessage(answer: ChatAnswer, requestModel: string): Message {
  const choice = answer.choices?.[0];
  if (!choice) throw new Error('the chat answer has no choice');
  const message = choice.message ?? {};
  const content: ContentBlock[] = [...thinkingBlocks(message)];
  const text = message['content'];
  if (typeof text === 'string' && text !== '') content.push({ type: 'text', text });
  const calls = message['tool_calls'];
  if (Array.isArray(calls)) {
    for (const call of calls as { id?: string; function?: { name?: string; arguments?: string } }[]) {
      content.push({ type: 'tool_use', id: call.id ?? '', name: call.function?.name ?? '', input: parseInput(call.function?.arguments) });
    }
  }
  const stop = content.some((b) => b.type === 'tool_use') && choice.finish_reason === 'stop' ? 'tool_use' : stopReason(choice.finish_reason);
  return {
    id: answer.id ?? '',
    type: 'message',
    role: 'assistant',
    model: answer.model ?? requestModel,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: fromUsage(answer.usage as Parameters<typeof fromUsage>[0]),
  };
}

function thinkingBlocks(message: Obj): ContentBlock[] {
  const out: ContentBlock[] = [];
  const blocks = message['content_blocks'];
  if (Array.isArray(blocks)) {
    for (const b of blocks as Obj[]) {
      if (b?.['type'] === 'thinking' && typeof b['thinking'] === 'string') {
        out.push({ type: 'thinking', thinking: b['thinking'], signature: typeof b['signature'] === 'string' ? b['signature'] : '' });
      } else if (b?.['type'] === 'redacted_thinking' && typeof b['data'] === 'string') {
        out.push({ type: 'redacted_thinking', data: b['data'] });
      }
    }
  }
  const reasoning = message['reasoning_content'];
  if (out.length === 0 && typeof reasoning === 'string' && reasoning !== '') out.push({ type: 'thinking', thinking: reasoning, signature: '' });
  return out;
}

/** Tool arguments as the object Messages carries; text that is not a JSON object is kept under `_raw`. */
export function parseInput(args: string | undefined): Obj {
  if (!args || args.trim() === '') return {};
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Obj;
  } catch {
    /* below */
  }
  return { _raw: args };
}
