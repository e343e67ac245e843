/**
 * observe.analytics: `GET /v1/analytics/groups/:groupBy` (spec §2.3, v1.11.2): request counts and
 * the asked `columns` (cost, tokens, latency percentiles, success and cache-hit rates ...) per
 * `ai_service`, `model`, `status_code`, `api_key`, `config`, `workspace`, `provider` or `prompt`,
 * over the request logs, with the log filters (time range ...) and pagination; and
 * `GET /v1/analytics/graphs/overview`: requests, errors, latency percentiles, tokens, cost and cache
 * hits per time bucket (logs/series.ts); and
 * `GET /v1/analytics/graphs/feedbacks`: feedback count, mean and weighted mean value, per day
 * (feedback-graph.ts; needs observe.feedback).
 *
 * The figures come from the request-log service (`RequestLogsService`, plugin
 * observe.logs), which owns the table and the visibility rules. Unlike the log routes, analytics
 * stay open to organisation admins when `organisationAdminsViewLogs` is off (they show no log
 * content); members' and managers' own-keys-only rule applies the same. Scope: `analytics.view`.
 */
import type { Plugin, PluginApi } from '../../../core/index.js';
import { RequestLogsService } from '../logs/contract.js';
import { ANALYTICS_SCOPE } from './contract.js';
import { answerFeedbackGraph } from './feedback-graph.js';

export { ANALYTICS_SCOPE } from './contract.js';

export default class AnalyticsPlugin implements Plugin {
  static readonly manifest = {
    id: 'observe.analytics',
    description: 'GET /v1/analytics/groups/:groupBy and graphs/overview over the request logs, and the feedback graph',
    requires: [RequestLogsService],
  };

  apply(api: PluginApi): void {
    const logs = api.services.get(RequestLogsService);
    api.registries.routes.add({
      method: 'GET', path: '/v1/analytics/groups/:groupBy', body: 'none',
      handler: (ctx) => logs.answerGroups(ctx, 'analytics', ANALYTICS_SCOPE),
    });
    api.registries.routes.add({
      method: 'GET', path: '/v1/analytics/graphs/overview', body: 'none',
      handler: (ctx) => logs.answerSeries(ctx, 'analytics', ANALYTICS_SCOPE),
    });
    api.registries.routes.add({
      method: 'GET', path: '/v1/analytics/graphs/feedbacks', body: 'none',
      handler: (ctx) => answerFeedbackGraph(ctx, logs, api.services),
    });
  }
}
