/**
 * Gemini `generateContent` answer → unified `chat.completion`: one choice per candidate, text parts
 * joined, function calls as tool_calls, finish reasons and usage mapped. Thought parts (thinking
 * summaries) are not part of the answer text.
 */
import { nowSeconds, type ChatCompletion, type ChatMessage, type ToolCall } from '../../core/index.js';
import { finishReasonOf, responseIdOf, toolCallId, usageOf, type GeminiCandidate, type GeminiResponse } from './answers.js';

export function fromGeminiResponse(response: GeminiResponse, requestModel: string, provider: string): ChatCompletion {
  if (!response || typeof response !== 'object') throw new Error('the answer is not a JSON object');
  const candidates = Array.isArray(response.candidates) ? response.candidates : [];
  const choices: ChatCompletion['choices'] = candidates.map((candidate, i) => choiceOf(candidate, i));
  // A prompt blocked before generation has no candidate at all.
  if (choices.length === 0) {
    choices.push({ index: 0, message: { role: 'assistant', content: null }, finish_reason: response.promptFeedback?.blockReason ? 'content_filter' : 'stop', logprobs: null });
  }
  return {
    id: responseIdOf(response),
    object: 'chat.completion',
    created: nowSeconds(),
    model: response.modelVersion ?? requestModel,
    provider,
    choices,
    usage: usageOf(response.usageMetadata),
  };
}

function choiceOf(candidate: GeminiCandidate, position: number): ChatCompletion['choices'][number] {
  let text: string | null = null;
  let toolCalls: ToolCall[] | undefined;
  for (const part of candidate.content?.parts ?? []) {
    if (part.thought) continue;
    if (typeof part.text === 'string') text = (text ?? '') + part.text;
    if (part.functionCall) {
      (toolCalls ??= []).push({
        id: toolCallId(part.functionCall.id),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    }
  }
  const message: ChatMessage = { role: 'assistant', content: text };
  if (toolCalls) message.tool_calls = toolCalls;
  return {
    index: candidate.index ?? position,
    message,
    finish_reason: finishReasonOf(candidate.finishReason, toolCalls !== undefined),
    logprobs: null,
  };
}
