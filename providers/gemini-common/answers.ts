/** Gemini answer pieces shared by the whole-body and the streamed translation. */
import { randomUUID } from 'node:crypto';
import { usage, type FinishReason, type Usage } from '../../core/index.js';

export interface GeminiUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export interface GeminiCandidate {
  index?: number;
  content?: { role?: string; parts?: { text?: string; thought?: boolean; functionCall?: { id?: string; name: string; args?: unknown } }[] };
  finishReason?: string;
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsage;
  modelVersion?: string;
  responseId?: string;
}

const CONTENT_FILTER = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'MODEL_ARMOR']);

/** Gemini finish reason → ours; a candidate that called functions finishes with tool_calls. */
export function finishReasonOf(reason: string | undefined, calledTools: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER.has(reason)) return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

/** Thinking tokens count as completion tokens, as OpenAI counts reasoning tokens. */
export function usageOf(meta: GeminiUsage | undefined): Usage {
  const prompt = meta?.promptTokenCount ?? 0;
  const thoughts = meta?.thoughtsTokenCount ?? 0;
  const completion = (meta?.candidatesTokenCount ?? 0) + thoughts;
  const out = usage(prompt, completion);
  if (typeof meta?.totalTokenCount === 'number') out.total_tokens = meta.totalTokenCount;
  if (thoughts > 0) out.completion_tokens_details = { reasoning_tokens: thoughts };
  if (meta?.cachedContentTokenCount) out.prompt_tokens_details = { cached_tokens: meta.cachedContentTokenCount };
  return out;
}

/** Gemini gives function calls no id (or one only on newer models): clients need one to answer. */
export function toolCallId(given: string | undefined): string {
  return given ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

export function responseIdOf(response: GeminiResponse): string {
  return response.responseId ? `chatcmpl-${response.responseId}` : `chatcmpl-${randomUUID()}`;
}
