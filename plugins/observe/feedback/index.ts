/**
 * observe.feedback: feedback on requests, by trace id (Portkey's feedback API).
 *
 *   POST /v1/feedback        {trace_id, value (-10..10), weight? (0..1, default 1), metadata?} (or an array)
 *                            → {status: "success", message, feedback_ids}
 *   PUT  /v1/feedback/:id    {value?, weight?, metadata?} → the same answer with that id
 *
 * Stored in the record store (store.ts); shown with the request's log (`feedback` of
 * `GET /v1/logs/:id`, through `LogFeedbackService` of observe.logs' contract) and counted by
 * `GET /v1/analytics/graphs/feedbacks` (through `FeedbackAnalyticsService` of observe.analytics'
 * contract). Scope `logs.write`. A feedback belongs to the caller's organisation and workspace,
 * and attaches only to logs of that organisation (and that workspace, for a workspace key).
 */
import {
  Errors, JsonPayload, requireScope, Services, timeOrderedId,
  type GatewayResponse, type Plugin, type PluginApi, type Principal,
} from '../../../core/index.js';
import { FeedbackAnalyticsService } from '../analytics/contract.js';
import { LogFeedbackService } from '../logs/contract.js';
import { createBodies, updateBody } from './body.js';
import { FeedbackStore, type Writer } from './store.js';

export const FEEDBACK_WRITE_SCOPE = 'logs.write';
/** Our cap on a feedback id in a path: ids are UUIDs. */
const MAX_ID_LENGTH = 64;

export default class FeedbackPlugin implements Plugin {
  static readonly manifest = {
    id: 'observe.feedback',
    description: 'Feedback on requests by trace id: POST /v1/feedback, shown with logs and counted in analytics',
    requires: [Services.Records],
    provides: [LogFeedbackService, FeedbackAnalyticsService],
  };

  async apply(api: PluginApi): Promise<void> {
    const store = new FeedbackStore(api.services.get(Services.Records));
    await store.init();
    api.services.provide(LogFeedbackService, { forLog: (log) => store.forLog(log) });
    api.services.provide(FeedbackAnalyticsService, { graph: (scope, range) => store.graph(scope, range) });

    api.registries.routes.add({
      method: 'POST', path: '/v1/feedback', body: 'json',
      handler: async (ctx) => {
        const writer = writerOf(requireScope(ctx, FEEDBACK_WRITE_SCOPE));
        const items = createBodies(ctx.request.body);
        const now = Date.now();
        const ids: string[] = [];
        for (const item of items) {
          const id = timeOrderedId();
          await store.insert(id, writer, { trace_id: item.trace_id, value: item.value, weight: item.weight ?? 1, metadata: item.metadata ?? null }, now);
          ids.push(id);
        }
        return answer(ids, items.length === 1 ? 'feedback recorded' : `${items.length} feedback recorded`);
      },
    });

    api.registries.routes.add({
      method: 'PUT', path: '/v1/feedback/:id', body: 'json',
      handler: async (ctx) => {
        const writer = writerOf(requireScope(ctx, FEEDBACK_WRITE_SCOPE));
        const id = ctx.params['id']!;
        const change = updateBody(ctx.request.body);
        if (id.length > MAX_ID_LENGTH || !(await store.update(id, writer, change, Date.now()))) {
          throw Errors.notFound(`no feedback "${id}"`, 'feedback_not_found');
        }
        return answer([id], 'feedback updated');
      },
    });
  }
}

function writerOf(principal: Principal): Writer {
  return { organisationId: principal.organisationId ?? '', workspaceId: principal.workspaceId ?? null, keyId: principal.keyId || null };
}

function answer(ids: string[], message: string): GatewayResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    json: JsonPayload.of({ status: 'success', message, feedback_ids: ids }),
  };
}
