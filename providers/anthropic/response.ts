/**
 * An Anthropic Message → a unified chat completion: text blocks joined into `content`, tool_use
 * blocks as `tool_calls`, stop_reason as finish_reason, usage in OpenAI terms. With strict
 * compliance off, `content_blocks` lists the text and thinking blocks in order (spec §4.1), so a
 * client can send them back to continue a thinking turn.
 */
import { chatCompletion, usage, type ChatCompletion, type ChatMessage, type FinishReason, type ToolCall, type Usage } from '../../core/index.js';
import type { Message, StopReason, WireUsage } from './wire.js';

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

export function finishReason(stop: StopReason | null | undefined): FinishReason {
  return (stop && FINISH[stop]) || 'stop';
}

/** The inverse (a chat answer told as a Message): which stop_reason each finish_reason stands for. */
const STOP: Readonly<Record<string, StopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

export function stopReason(finish: string | null | undefined): StopReason {
  return (finish && STOP[finish]) || 'end_turn';
}

/**
 * Anthropic counts cache reads and cache writes apart from `input_tokens`; OpenAI's prompt_tokens
 * includes cached tokens, so they are added back and the reads reported as cached_tokens.
 */
export function toUsage(u: WireUsage): Usage {
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const prompt = (u.input_tokens ?? 0) + cacheRead + (u.cache_creation_input_tokens ?? 0);
  return usage(prompt, u.output_tokens ?? 0, cacheRead > 0 ? { prompt_tokens_details: { cached_tokens: cacheRead } } : {});
}

/** The inverse of toUsage: OpenAI's cached prompt tokens are Anthropic's cache reads, apart from input_tokens. */
export function fromUsage(u: Partial<Usage> | null | undefined): { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number } {
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  const out: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number } = {
    input_tokens: Math.max(0, (u?.prompt_tokens ?? 0) - cached),
    output_tokens: u?.completion_tokens ?? 0,
  };
  if (cached > 0) out.cache_read_input_tokens = cached;
  return out;
}

export function isMessage(value: unknown): value is Message {
  const m = value as Message | null;
  return typeof m === 'object' && m !== null && m.type === 'message' && Array.isArray(m.content);
}

export function toChatCompletion(msg: Message, provider: string, strict: boolean): ChatCompletion {
  let text: string | null = null;
  const calls: ToolCall[] = [];
  const blocks: Record<string, unknown>[] = [];
  for (const block of msg.content) {
    switch (block.type) {
      case 'text':
        text = (text ?? '') + (block.text as string);
        if (!strict) blocks.push({ type: 'text', text: block.text });
        break;
      case 'tool_use':
        calls.push({ id: block.id as string, type: 'function', function: { name: block.name as string, arguments: JSON.stringify(block.input ?? {}) } });
        break;
      case 'thinking':
        if (!strict) blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' });
        break;
      case 'redacted_thinking':
        if (!strict) blocks.push({ type: 'redacted_thinking', data: block.data });
        break;
    }
  }
  const message: ChatMessage = { role: 'assistant', content: text ?? (calls.length > 0 ? null : ''), refusal: null };
  if (calls.length > 0) message.tool_calls = calls;
  if (blocks.length > 0) message.content_blocks = blocks;
  return chatCompletion({
    id: msg.id,
    model: msg.model,
    provider,
    message,
    finishReason: finishReason(msg.stop_reason),
    usage: msg.usage ? toUsage(msg.usage) : undefined,
  });
}
