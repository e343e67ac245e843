/** Cohere `POST /v2/chat` answer → unified `chat.completion`. Cohere names no model: the request's is kept. */
import { chatCompletion, type ChatCompletion, type ChatMessage, type ToolCall } from '../../core/index.js';
import { finishReason, unifiedUsage, type CohereChatResponse } from './wire.js';

export function fromCohereChat(value: CohereChatResponse, model: string, fallbackId: () => string): ChatCompletion {
  const m = value.message ?? {};
  let text = '';
  for (const item of m.content ?? []) if (item.type === 'text' && typeof item.text === 'string') text += item.text;
  const message: ChatMessage = { role: 'assistant', content: text || m.tool_plan || null, refusal: null };
  if (m.tool_calls?.length) {
    message.tool_calls = m.tool_calls.map((c, i): ToolCall => ({
      id: c.id ?? `call_${i}`,
      type: 'function',
      function: { name: c.function?.name ?? '', arguments: c.function?.arguments ?? '{}' },
    }));
  }
  return chatCompletion({
    id: value.id ?? fallbackId(),
    model,
    message,
    finishReason: finishReason(value.finish_reason),
    usage: unifiedUsage(value.usage),
  });
}
