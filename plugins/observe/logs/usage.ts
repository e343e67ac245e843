/**
 * Token usage read from an answer without parsing the whole answer: the last `"usage"` key of a
 * JSON body (OpenAI puts it after `choices`) or of the last events of a stream (the final usage
 * chunk that `stream_options.include_usage` asks for). Only the `{...}` after the key is parsed
 * (core's lastJsonObject, which the token limits read usage with too); the log keeps unknown counts as null.
 */
import { lastJsonObject, type JsonPayload } from '../../../core/index.js';

export interface Usage {
  prompt_tokens: number | null;
  completion_tokens: number | null;
  total_tokens: number | null;
}

/** Usage of a JSON answer body, or undefined when it has none. */
export function usageFromJson(body: string | Uint8Array): Usage | undefined {
  const usage = lastJsonObject(body, '"usage"');
  return usage && normalise(usage);
}

/** Usage of an answer already parsed (or built as a value): its top-level `usage`. */
export function usageFromValue(value: unknown): Usage | undefined {
  const usage = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)['usage'] : undefined;
  return usage !== null && typeof usage === 'object' && !Array.isArray(usage) ? normalise(usage as Record<string, unknown>) : undefined;
}

/** Usage of a JSON answer: read from its value when that is at hand, else scanned for in its body. */
export function usageFromPayload(json: JsonPayload): Usage | undefined {
  return json.parsed ? usageFromValue(json.value) : usageFromJson(json.bytes());
}

/** Usage from the last chunks of an SSE stream (oldest first), or undefined. */
export function usageFromSseTail(chunks: readonly Uint8Array[]): Usage | undefined {
  if (chunks.length === 0) return undefined;
  return usageFromJson(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** OpenAI names (`prompt_tokens` ...) or the Responses API's (`input_tokens` ...). */
function normalise(u: Record<string, unknown>): Usage | undefined {
  const prompt = count(u['prompt_tokens'] ?? u['input_tokens']);
  const completion = count(u['completion_tokens'] ?? u['output_tokens']);
  let total = count(u['total_tokens']);
  if (total === null && (prompt !== null || completion !== null)) total = (prompt ?? 0) + (completion ?? 0);
  if (prompt === null && completion === null && total === null) return undefined;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}
