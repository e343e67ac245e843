/**
 * Converse response → unified `chat.completion`. Converse names neither a response id nor the model,
 * so the id is generated and the model is the one the request named (as Bedrock resolved it).
 */
import { randomUUID } from 'node:crypto';
import { chatCompletion, type ChatCompletion, type ToolCall } from '../../core/index.js';
import { finishReason } from './stop-reason.js';
import { PROVIDER_ID } from './target.js';
import { toUsage } from './usage.js';
import type { ConverseResponse } from './wire.js';

export function fromConverseResponse(body: ConverseResponse, model: string): ChatCompletion {
  if (!body || typeof body !== 'object' || !body.output) throw new Error('no output in the Converse answer');
  let text: string | null = null;
  const calls: ToolCall[] = [];
  for (const block of body.output.message?.content ?? []) {
    if (typeof block.text === 'string') text = text === null ? block.text : text + block.text;
    else if (block.toolUse) {
      calls.push({
        id: block.toolUse.toolUseId,
        type: 'function',
        function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) },
      });
    }
  }
  return chatCompletion({
    id: `chatcmpl-${randomUUID()}`,
    model,
    provider: PROVIDER_ID,
    message: { role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}), refusal: null },
    finishReason: finishReason(body.stopReason),
    usage: toUsage(body.usage),
  });
}
