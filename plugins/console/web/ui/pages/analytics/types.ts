/** GET /v1/analytics/graphs/overview (plugin observe.analytics). */
export interface Figures {
  requests: number;
  errors: number;
  error_rate: number | null;
  avg_latency: number | null;
  p50_latency: number | null;
  p95_latency: number | null;
  p99_latency: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost: number | null;
  cache_hits: number;
  cache_hit_rate: number | null;
}

export interface Overview {
  object: 'analytics-graph';
  bucket: string;
  bucket_ms: number;
  time_of_generation_min: string;
  time_of_generation_max: string;
  summary: Figures;
  data_points: (Figures & { timestamp: string })[];
}
