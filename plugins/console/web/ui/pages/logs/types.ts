/** A log as GET /v1/logs shows it (fields the console reads). */
export interface LogItem {
  id: string;
  created_at: string;
  workspace_id: string | null;
  api_key_id: string | null;
  trace_id: string | null;
  span_id: string | null;
  endpoint: string | null;
  method: string;
  path: string;
  config_id: string | null;
  prompt_id: string | null;
  ai_service: string | null;
  provider: string | null;
  model: string | null;
  /** The route the request took (the config path of the target, as `x-gw-last-used-option-index`). */
  target: string | null;
  status: number;
  error_code: string | null;
  reason: string | null;
  stream: boolean;
  latency_ms: number;
  upstream_latency_ms: number | null;
  usage: { prompt_tokens: number | null; completion_tokens: number | null; total_tokens: number | null };
  cost: number | null;
  cache_status: string | null;
  retry_count: number;
  metadata: Record<string, unknown> | null;
  hook_results: HookResult[] | null;
}

export interface HookResult {
  id?: string;
  type?: string;
  target?: string;
  verdict?: boolean;
  deny?: boolean;
  async?: boolean;
  in_response?: boolean;
  execution_time?: number;
  checks?: { id: string; verdict: boolean }[];
}

/** GET /v1/logs/:id: the list view plus the recorded bodies. */
export interface LogDetailItem extends LogItem {
  log_format: string;
  request: { body: unknown };
  response: { body: unknown };
}
