/**
 * The Anthropic Messages API wire format (API version 2023-06-01), as far as the adapter reads
 * or writes it. Field names follow https://docs.anthropic.com/en/api/messages and the streaming
 * guide https://docs.anthropic.com/en/docs/build-with-claude/streaming.
 */

export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

// ---------- request ----------

export interface TextBlock { type: 'text'; text: string; cache_control?: unknown }
export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  cache_control?: unknown;
}
export interface DocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
  title?: string;
}
export interface ToolUseBlock { type: 'tool_use'; id: string; name: string; input: unknown }
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Block[];
  is_error?: boolean;
}
export interface ThinkingBlock { type: 'thinking'; thinking: string; signature: string }
export interface RedactedThinkingBlock { type: 'redacted_thinking'; data: string }

/** Blocks the adapter builds; clients may also send other native blocks, passed on untouched. */
export type Block =
  | TextBlock | ImageBlock | DocumentBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | RedactedThinkingBlock
  | { type: string; [field: string]: unknown };

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | Block[];
}

export interface ToolParam { name: string; description?: string; input_schema: unknown }

export type ToolChoice =
  | { type: 'auto' | 'any' | 'none'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlock[];
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  top_k?: number;
  metadata?: { user_id: string };
  tools?: ToolParam[];
  tool_choice?: ToolChoice;
  thinking?: unknown;
  stream?: boolean;
}

// ---------- response ----------

export type StopReason =
  | 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface WireUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: string; [field: string]: unknown };

export interface Message {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: WireUsage;
}

export interface WireError {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

// ---------- stream events ----------

export type StreamEvent =
  | { type: 'message_start'; message: Message }
  | { type: 'content_block_start'; index: number; content_block: ContentBlock }
  | { type: 'content_block_delta'; index: number; delta: BlockDelta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: StopReason | null; stop_sequence: string | null }; usage?: WireUsage }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | { type: 'error'; error: { type: string; message: string } };

export type BlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'citations_delta'; citation: unknown };

/** The HTTP status Anthropic uses for each error type (https://docs.anthropic.com/en/api/errors). */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};
