/**
 * The Response object (spec §2.2 Stored response) the gateway builds for translated requests and
 * keeps for every stored one: the request's settings echoed with OpenAI's defaults, then the
 * output, status, usage and error filled in when the answer is known.
 */
import { randomBytes } from 'node:crypto';
import type { CreateResponseBody, ResponseStatus } from './schemas.js';

export type OutputItem = Record<string, unknown> & { type: string };

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  error: { code?: string | null; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: OutputItem[];
  output_text: string;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary?: string | null };
  store: boolean;
  temperature: number;
  text: { format: Record<string, unknown> };
  tool_choice: unknown;
  tools: unknown[];
  top_p: number;
  truncation: 'auto' | 'disabled';
  usage: ResponseUsage | null;
  user: string | null;
  metadata: Record<string, string>;
  [extra: string]: unknown;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}

/** A response that has not produced anything yet (status `in_progress`). */
export function pendingResponse(id: string, body: CreateResponseBody, createdAt: number): ResponseObject {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: body.model,
    output: [],
    output_text: '',
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: body.store !== false,
    temperature: body.temperature ?? 1,
    text: { format: (body.text?.format as Record<string, unknown> | undefined) ?? { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: null,
    user: body.user ?? null,
    metadata: (body.metadata as Record<string, string> | null | undefined) ?? {},
  };
}

/** The concatenated text of the output messages (what the SDKs call `output_text`). */
export function outputText(output: readonly unknown[]): string {
  let text = '';
  for (const item of output) {
    const record = item as { type?: unknown; content?: unknown };
    if (record?.type !== 'message' || !Array.isArray(record.content)) continue;
    for (const part of record.content as { type?: unknown; text?: unknown }[]) {
      if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
    }
  }
  return text;
}

/** A failed response: status `failed` and `error` filled (spec §7). */
export function failedResponse(pending: ResponseObject, error: { code?: string | null; message: string }): ResponseObject {
  return { ...pending, status: 'failed', error: { code: error.code ?? null, message: error.message } };
}
