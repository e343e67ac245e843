/**
 * observe.analytics: `GET /v1/analytics/groups/:groupBy` (spec §2.3, v1.11.2): request counts and
 * the asked `columns` (cost, tokens, latency percentiles, success and cache-hit rates ...) per
 * `ai_service`, `model`, `status_code`, `api_key`, `config`, `workspace`, `provider` or `prompt`,
 * over the request logs, with the log filters (time range ...) and pagination.
 *
 * The figures come from the request-log service (`RequestLogsService`, plugin
 * observe.logs), which owns the table and the visibility rules. Unlike the log routes, analytics
 * stay open to organisation admins when `organisationAdminsViewLogs` is off (they show no log
 * content); members' and managers' own-keys-only rule applies the same. Scope: `analytics.view`.
 */
import type { Plugin, PluginApi } from '../../../core/index.js';
import { RequestLogsService } from '../logs/contract.js';
export const ANALYTICS_SCOPE = 'analytics.view';

export default class AnalyticsPlugin implements Plugin {
  static readonly manifest = {
    id: 'observe.analytics',
    description: 'GET /v1/analytics/groups/:groupBy over the request logs',
    requires: [RequestLogsService],
  };

  apply(api: PluginApi): void {
    const logs = api.services.get(RequestLogsService);
    api.registries.routes.add({
      method: 'GET', path: '/v1/analytics/groups/:groupBy', body: 'none',
      handler: (ctx) => logs.answerGroups(ctx, 'analytics', ANALYTICS_SCOPE),
    });
  }
}
