/**
 * The log routes (authenticated by `x-gw-api-key`, authorised by scope and visibility):
 *   GET /v1/logs                    filters, time range, `current_page` (0-based) / `page_size`
 *   GET /v1/logs/:id                one log with its bodies (when recorded), `log_format`, and its
 *                                   `feedback` when a feedback plugin (LogFeedbackService) is loaded
 *   GET /v1/logs/groups/:groupBy    grouped figures (`columns`), same filters
 */
import { pageOf, type PluginServices, type Router } from '../../../core/index.js';
import { LogFeedbackService } from './contract.js';
import { parseFilter } from './filter.js';
import { jsonAnswer, notFound, type RequestLogService } from './service.js';
import type { LogStore } from './store.js';
import { logDetail, logView } from './view.js';
import { SCOPES, type Visibility } from './visibility.js';

/** Our cap on a log id in a path: ids are UUIDs. */
const MAX_ID_LENGTH = 64;

export function registerLogRoutes(routes: Router, logs: LogStore, visibility: Visibility, service: RequestLogService, services: PluginServices): void {
  routes.add({
    method: 'GET', path: '/v1/logs', body: 'none',
    handler: async (ctx) => {
      const query = ctx.request.query;
      const filter = parseFilter(query);
      const page = pageOf(ctx);
      const scope = await visibility.scope(ctx, 'logs', SCOPES.list, filter.workspace);
      const { total, rows } = await logs.list(filter, scope, page);
      return jsonAnswer({
        object: 'list', total_count: total, current_page: page.page, page_size: page.size,
        data: rows.map((row) => logView(row, scope.showMetadata)),
      });
    },
  });

  routes.add({
    method: 'GET', path: '/v1/logs/:id', body: 'none',
    handler: async (ctx) => {
      const id = ctx.params['id']!;
      const scope = await visibility.scope(ctx, 'logs', SCOPES.view);
      const row = id.length <= MAX_ID_LENGTH ? await logs.get(id, scope) : undefined;
      if (!row) throw notFound(id);
      const detail = logDetail(row, scope.showMetadata);
      // Looked up per request: the feedback plugin may be applied after this one.
      const feedback = services.find(LogFeedbackService);
      if (feedback) {
        detail['feedback'] = row.trace_id === null ? [] : await feedback.forLog({
          traceId: row.trace_id, organisationId: row.organisation_id ?? '', workspaceId: row.workspace_id,
        });
      }
      return jsonAnswer(detail);
    },
  });

  routes.add({
    method: 'GET', path: '/v1/logs/groups/:groupBy', body: 'none',
    handler: (ctx) => service.answerGroups(ctx, 'logs', SCOPES.list),
  });
}
