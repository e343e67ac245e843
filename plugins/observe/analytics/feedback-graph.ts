/**
 * `GET /v1/analytics/graphs/feedbacks`: feedback counted over time (plugin observe.feedback, through
 * FeedbackAnalyticsService), seen with the analytics visibility rules of the request logs.
 * Query: `time_of_generation_min`, `time_of_generation_max` (ISO 8601 or ms since the epoch), `workspace_id`.
 */
import { Errors, isDateInRange, JsonPayload, type GatewayResponse, type PluginServices, type RequestContext } from '../../../core/index.js';
import type { RequestLogs } from '../logs/contract.js';
import { ANALYTICS_SCOPE, FeedbackAnalyticsService, type FeedbackRange } from './contract.js';

const QUERY_KEYS: ReadonlySet<string> = new Set(['time_of_generation_min', 'time_of_generation_max', 'workspace_id']);

export async function answerFeedbackGraph(ctx: RequestContext, logs: RequestLogs, services: PluginServices): Promise<GatewayResponse> {
  const query = ctx.request.query;
  for (const key of query.keys()) if (!QUERY_KEYS.has(key)) throw invalidQuery(key, 'is not a known filter');
  const range: FeedbackRange = {};
  const from = time(query, 'time_of_generation_min');
  const to = time(query, 'time_of_generation_max');
  if (from !== undefined) range.from = from;
  if (to !== undefined) range.to = to;
  if (from !== undefined && to !== undefined && from > to) throw invalidQuery('time_of_generation_min', 'must not be after time_of_generation_max');
  const scope = await logs.viewScope(ctx, 'analytics', ANALYTICS_SCOPE, query.get('workspace_id') ?? undefined);
  // Looked up per request: the feedback plugin may be applied after this one.
  const feedback = services.find(FeedbackAnalyticsService);
  if (!feedback) throw Errors.pluginNotLoaded('feedback analytics need plugin observe.feedback, which is not loaded');
  const graph = await feedback.graph(scope, range);
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    json: JsonPayload.of({ object: 'analytics-graph', ...graph }),
  };
}

function invalidQuery(name: string, rule: string) {
  return Errors.invalidRequest(`query.${name}: ${rule}`, name, 'invalid_query');
}

function time(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!isDateInRange(ms)) throw invalidQuery(name, 'must be an ISO 8601 date-time or milliseconds since the epoch, within years 0000 to 9999');
  return ms;
}
