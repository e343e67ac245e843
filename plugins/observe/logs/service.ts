/**
 * The request-log service (`RequestLogsService`, contract.ts) for the analytics and metrics
 * plugins, which import only the contract.
 */
import { Errors, JsonPayload, pageOf, type GatewayResponse } from '../../../core/index.js';
import type { RequestLogs } from './contract.js';
import { parseFilter } from './filter.js';
import { parseColumns, parseGroupBy } from './groups.js';
import type { Recorder } from './recorder.js';
import { parseSeriesRange } from './series.js';
import type { LogStore } from './store.js';
import type { Visibility } from './visibility.js';

/** The service's type under its former name. */
export type RequestLogService = RequestLogs;

const GROUP_QUERY_KEYS: ReadonlySet<string> = new Set(['columns']);
const SERIES_QUERY_KEYS: ReadonlySet<string> = new Set(['bucket']);

export function jsonAnswer(value: unknown, status = 200): GatewayResponse {
  return { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, json: JsonPayload.of(value) };
}

export function createService(recorder: Recorder, logs: LogStore, visibility: Visibility, retentionMs: number): RequestLogs {
  return {
    stats: () => recorder.stats(),
    onRecords: (listener) => recorder.onRecords(listener),
    flush: () => recorder.flush(),
    sweep: (now = Date.now()) => logs.deleteBefore(now - retentionMs, () => new Promise((r) => setImmediate(r))),
    answerGroups: async (ctx, purpose, scopeName) => {
      const groupBy = parseGroupBy(ctx.params['groupBy'] ?? '');
      const query = ctx.request.query;
      const columns = parseColumns(query.get('columns'));
      const filter = parseFilter(query, GROUP_QUERY_KEYS);
      const page = pageOf(ctx);
      const scope = await visibility.scope(ctx, purpose, scopeName, filter.workspace);
      const { total, rows } = await logs.groups(groupBy, columns, filter, scope, page);
      if (groupBy === 'api_key') await addKeyNames(rows, visibility);
      return jsonAnswer({ object: 'list', group_by: groupBy, total_count: total, current_page: page.page, page_size: page.size, data: rows });
    },
    answerSeries: async (ctx, purpose, scopeName) => {
      const query = ctx.request.query;
      const filter = parseFilter(query, SERIES_QUERY_KEYS);
      const range = parseSeriesRange(query, filter, Date.now());
      const scope = await visibility.scope(ctx, purpose, scopeName, filter.workspace);
      const series = await logs.series(range, filter, scope);
      return jsonAnswer({
        object: 'analytics-graph', bucket: range.bucket, bucket_ms: range.bucketMs,
        time_of_generation_min: new Date(range.from).toISOString(), time_of_generation_max: new Date(range.to).toISOString(),
        ...series,
      });
    },
    viewScope: (ctx, purpose, scopeName, workspace) => visibility.scope(ctx, purpose, scopeName, workspace),
  };
}

async function addKeyNames(rows: Record<string, unknown>[], visibility: Visibility): Promise<void> {
  const directory = visibility.directory();
  if (!directory) return;
  await Promise.all(rows.map(async (row) => {
    const id = row['api_key'];
    row['api_key_name'] = typeof id === 'string' ? (await directory.keyName(id).catch(() => undefined)) ?? null : null;
  }));
}

export function notFound(id: string) {
  return Errors.notFound(`no log "${id}"`, 'log_not_found');
}
