/**
 * Builders of the unified (OpenAI) response shapes, shared by every adapter that translates
 * another provider's format, so that every provider answers in exactly the same shape.
 */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | null;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
  /** Thinking or other non-text blocks surfaced as spec §4.1 `content_blocks`. */
  content_blocks?: Record<string, unknown>[];
  refusal?: null;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  provider?: string;
  choices: { index: number; message: ChatMessage; finish_reason: FinishReason; logprobs: null }[];
  usage?: Usage;
  system_fingerprint?: string;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string | null;
  tool_calls?: { index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }[];
  content_blocks?: Record<string, unknown>[];
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  provider?: string;
  choices: { index: number; delta: ChunkDelta; finish_reason: FinishReason; logprobs: null }[];
  usage?: Usage | null;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function usage(prompt: number, completion: number, extra: Partial<Usage> = {}): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...extra };
}

export function chatCompletion(init: {
  id: string; model: string; provider?: string; message: ChatMessage; finishReason: FinishReason; usage?: Usage; created?: number;
}): ChatCompletion {
  return {
    id: init.id,
    object: 'chat.completion',
    created: init.created ?? nowSeconds(),
    model: init.model,
    ...(init.provider ? { provider: init.provider } : {}),
    choices: [{ index: 0, message: init.message, finish_reason: init.finishReason, logprobs: null }],
    ...(init.usage ? { usage: init.usage } : {}),
  };
}

/** A chunk factory bound to one stream's id, model and creation time. */
export function chunkFactory(init: { id: string; model: string; provider?: string; created?: number }) {
  const created = init.created ?? nowSeconds();
  return (delta: ChunkDelta, finishReason: FinishReason = null, chunkUsage?: Usage): ChatCompletionChunk => ({
    id: init.id,
    object: 'chat.completion.chunk',
    created,
    model: init.model,
    ...(init.provider ? { provider: init.provider } : {}),
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...(chunkUsage ? { usage: chunkUsage } : {}),
  });
}
