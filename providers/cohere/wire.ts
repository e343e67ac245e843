/**
 * The parts of Cohere's v2 wire format (docs.cohere.com/v2/reference: chat, chat stream, embed,
 * rerank) that the adapter reads, and the mappings shared by plain and streamed chat.
 */
import { usage, type FinishReason, type Usage } from '../../core/index.js';

export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number; search_units?: number };
  tokens?: { input_tokens?: number; output_tokens?: number };
}

export interface CohereToolCall {
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface CohereChatResponse {
  id?: string;
  finish_reason?: string;
  message?: {
    role?: string;
    content?: { type?: string; text?: string }[];
    tool_plan?: string;
    tool_calls?: CohereToolCall[];
  };
  usage?: CohereUsage;
}

/** One event of `POST /v2/chat` with `stream: true`, keyed by `type`. */
export interface CohereStreamEvent {
  type?: string;
  id?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { type?: string; text?: string };
      tool_plan?: string;
      tool_calls?: CohereToolCall;
    };
    finish_reason?: string;
    error?: string;
    usage?: CohereUsage;
  };
}

/** COMPLETE | STOP_SEQUENCE | MAX_TOKENS | TOOL_CALL | ERROR | TIMEOUT | CONTENT_BLOCKED ... (case varies). */
export function finishReason(reason: string | undefined): FinishReason {
  switch (reason?.toUpperCase()) {
    case 'MAX_TOKENS': return 'length';
    case 'TOOL_CALL': return 'tool_calls';
    case 'CONTENT_BLOCKED':
    case 'ERROR_TOXIC': return 'content_filter';
    default: return 'stop';
  }
}

/** Tokens the model processed (`tokens`), else the billed ones: prompt tokens include Cohere's template. */
export function unifiedUsage(u: CohereUsage | undefined): Usage {
  const input = u?.tokens?.input_tokens ?? u?.billed_units?.input_tokens ?? 0;
  const output = u?.tokens?.output_tokens ?? u?.billed_units?.output_tokens ?? 0;
  return usage(input, output);
}

/** The provider id to report: the target's (another adapter may reuse these transforms), else cohere. */
export function providerOf(target: { provider?: unknown }): string {
  return typeof target.provider === 'string' ? target.provider : 'cohere';
}
