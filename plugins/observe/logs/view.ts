/** A stored row as the API shows it: ISO times, usage grouped, JSON columns parsed, hidden fields nulled. */
import { hookRowsView } from './hook-rows.js';
import type { LogRow } from './schema.js';

/** The format of recorded bodies: the unified (OpenAI wire format) request and answer. */
export const LOG_FORMAT = 'openai';

export function logView(row: LogRow, showMetadata: boolean): Record<string, unknown> {
  return {
    id: row.id,
    object: 'log',
    created_at: new Date(Number(row.created_at)).toISOString(),
    organisation_id: row.organisation_id || null,
    workspace_id: row.workspace_id,
    api_key_id: row.api_key_id,
    trace_id: row.trace_id,
    span_id: row.span_id,
    parent_span_id: row.parent_span_id,
    span_name: row.span_name,
    method: row.method,
    path: row.path,
    endpoint: row.endpoint,
    config_id: row.config_id,
    prompt_id: row.prompt_id,
    ai_service: row.provider,
    provider: row.integration ?? row.provider,
    model: row.model,
    target: row.target,
    status: Number(row.status),
    error_code: row.error_code,
    reason: row.reason,
    stream: Number(row.stream) === 1,
    latency_ms: Number(row.latency_ms),
    upstream_latency_ms: row.upstream_latency_ms === null ? null : Number(row.upstream_latency_ms),
    usage: {
      prompt_tokens: num(row.prompt_tokens),
      completion_tokens: num(row.completion_tokens),
      total_tokens: num(row.total_tokens),
    },
    cost: num(row.cost),
    cache_status: row.cache_status,
    retry_count: Number(row.retry_count),
    metadata: showMetadata ? json(row.metadata) : null,
    hook_results: hookRowsView(row.hook_results),
  };
}

/** `GET /v1/logs/{id}`: the list view plus the bodies (when recorded) and their format. */
export function logDetail(row: LogRow, showMetadata: boolean): Record<string, unknown> {
  return {
    ...logView(row, showMetadata),
    log_format: LOG_FORMAT,
    request: { body: json(row.request_body) },
    response: { body: json(row.response_body) },
  };
}

function num(value: number | null): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** Parsed JSON; a body that was cut (or an SSE transcript) stays text. */
function json(text: string | null): unknown {
  if (text === null || text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
