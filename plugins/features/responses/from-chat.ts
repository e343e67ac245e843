/**
 * A chat completion → the output of a Response object:
 *   thinking content blocks → a reasoning item (its text as a summary)
 *   message content / refusal → an output message (output_text / refusal parts)
 *   tool_calls → function_call items
 *   finish_reason length → status incomplete (max_output_tokens); content_filter → incomplete (content_filter)
 *   usage prompt/completion tokens → input/output tokens (cached and reasoning details kept)
 */
import { newId, outputText, type OutputItem, type ResponseObject, type ResponseUsage } from './response-object.js';

interface ChatChoice {
  message?: {
    content?: unknown;
    refusal?: unknown;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
    content_blocks?: { type?: string; thinking?: string }[];
  };
  finish_reason?: string | null;
}

export interface ChatCompletionLike {
  model?: string;
  choices?: ChatChoice[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  };
}

/** Undefined when the answer has no choice to read (the caller fails the response). */
export function fromChat(pending: ResponseObject, chat: ChatCompletionLike): ResponseObject | undefined {
  const choice = chat.choices?.[0];
  const message = choice?.message;
  if (!message) return undefined;
  const output: OutputItem[] = [];
  const thinking = (message.content_blocks ?? []).filter((b) => b?.type === 'thinking' && typeof b.thinking === 'string');
  if (thinking.length > 0) {
    output.push({ type: 'reasoning', id: newId('rs'), summary: thinking.map((b) => ({ type: 'summary_text', text: b.thinking })) });
  }
  const text = textOf(message.content);
  const parts: Record<string, unknown>[] = [];
  if (text) parts.push({ type: 'output_text', text, annotations: [] });
  if (typeof message.refusal === 'string' && message.refusal) parts.push({ type: 'refusal', refusal: message.refusal });
  if (parts.length > 0) output.push({ type: 'message', id: newId('msg'), status: 'completed', role: 'assistant', content: parts });
  for (const call of message.tool_calls ?? []) {
    output.push({
      type: 'function_call', id: newId('fc'), call_id: call.id ?? newId('call'),
      name: call.function?.name ?? '', arguments: call.function?.arguments ?? '', status: 'completed',
    });
  }
  const reason = choice?.finish_reason === 'length' ? 'max_output_tokens' : choice?.finish_reason === 'content_filter' ? 'content_filter' : undefined;
  return {
    ...pending,
    model: chat.model ?? pending.model,
    status: reason ? 'incomplete' : 'completed',
    incomplete_details: reason ? { reason } : null,
    output,
    output_text: outputText(output),
    usage: chat.usage ? toUsage(chat.usage) : null,
  };
}

export function toUsage(u: NonNullable<ChatCompletionLike['usage']>): ResponseUsage {
  const input = u.prompt_tokens ?? 0;
  const output = u.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens ?? input + output,
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: unknown; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
}
