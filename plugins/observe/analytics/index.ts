/**
 * observe.analytics: `GET /v1/analytics/groups/:groupBy` (spec §2.3, v1.11.2): request counts and
 * the asked `columns` (cost, tokens, latency percentiles, success and cache-hit rates ...) per
 * `ai_service`, `model`, `status_code`, `api_key`, `config`, `workspace`, `provider` or `prompt`,
 * over the request logs, with the log filters (time range ...) and pagination.
 *
 * The figures come from the request-log service (`Symbol.for('gw.RequestLogs')`, plugin
 * observe.logs), which owns the table and the visibility rules. Unlike the log routes, analytics
 * stay open to organisation admins when `organisationAdminsViewLogs` is off (they show no log
 * content); members' and managers' own-keys-only rule applies the same. Scope: `analytics.view`.
 */
import type { GatewayResponse, Plugin, PluginApi, RequestContext } from '../../../core/index.js';

/** The part of the request-log service this plugin uses. */
interface GroupAnswering {
  answerGroups(ctx: RequestContext, purpose: 'analytics', scope: string): Promise<GatewayResponse>;
}

const REQUEST_LOGS = Symbol.for('gw.RequestLogs');
export const ANALYTICS_SCOPE = 'analytics.view';

export default class AnalyticsPlugin implements Plugin {
  static readonly manifest = {
    id: 'observe.analytics',
    description: 'GET /v1/analytics/groups/:groupBy over the request logs',
    dependsOn: ['observe.logs'],
  };

  apply(api: PluginApi): void {
    const logs = api.container.resolve<GroupAnswering>(REQUEST_LOGS);
    api.registries.routes.add({
      method: 'GET', path: '/v1/analytics/groups/:groupBy', body: 'none',
      handler: (ctx) => logs.answerGroups(ctx, 'analytics', ANALYTICS_SCOPE),
    });
  }
}
