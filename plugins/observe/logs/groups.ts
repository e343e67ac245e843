/**
 * Grouped figures over the logs (`/v1/logs/groups/:groupBy`, `/v1/analytics/groups/:groupBy`).
 * Everything is computed in SQL that SQLite and PostgreSQL both run: plain aggregates, and for the
 * latency percentiles window functions (ROW_NUMBER / COUNT OVER a partition).
 *
 * Definitions (docs/limits-and-observability.md, "Request logs"):
 *   requests          rows in the group
 *   cost              sum of known costs (null when none is known)
 *   total_tokens      sum of known total tokens; avg_* are means over rows whose count is known
 *   avg_latency       mean total latency, ms
 *   p95/p99_latency   nearest-rank percentile of total latency, ms: the value at rank ceil(p × n)
 *   success_rate      share of rows with a 2xx status (0 to 1)
 *   error_count       rows with status >= 400
 *   cache_hit_rate    share of rows answered from the cache (HIT or SEMANTIC HIT), of all rows
 *   first/last_seen   earliest / latest request start (ISO 8601)
 */
import type { Page, RecordStore } from '../../../core/index.js';
import { invalidQuery, type Where } from './filter.js';

/** groupBy → the SQL expression of the group key. */
export const GROUP_KEYS: Readonly<Record<string, string>> = {
  ai_service: 'provider',
  model: 'model',
  status_code: 'status',
  api_key: 'api_key_id',
  config: 'config_id',
  workspace: 'workspace_id',
  // The provider as configured: the integration (`@slug`, virtual key) when one was used.
  provider: 'COALESCE(integration, provider)',
  prompt: 'prompt_id',
};

const AGGREGATES: Readonly<Record<string, string>> = {
  cost: 'SUM(cost)',
  total_tokens: 'SUM(total_tokens)',
  avg_tokens: 'AVG(total_tokens)',
  avg_input_tokens: 'AVG(prompt_tokens)',
  avg_output_tokens: 'AVG(completion_tokens)',
  avg_latency: 'AVG(latency_ms)',
  success_rate: 'AVG(CASE WHEN status >= 200 AND status < 300 THEN 1.0 ELSE 0.0 END)',
  error_count: 'SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END)',
  cache_hit_rate: "AVG(CASE WHEN cache_status IN ('HIT', 'SEMANTIC HIT') THEN 1.0 ELSE 0.0 END)",
  last_seen: 'MAX(created_at)',
  first_seen: 'MIN(created_at)',
};

/** Percent ranks, compared in integers (`rn * 100 >= p * n`) so no rounding can move a rank. */
const PERCENTILES: Readonly<Record<string, number>> = { p95_latency: 95, p99_latency: 99 };

export const COLUMN_NAMES: readonly string[] = [...Object.keys(AGGREGATES), ...Object.keys(PERCENTILES)].sort();

const TIMESTAMPS = new Set(['last_seen', 'first_seen']);
const COUNTS = new Set(['total_tokens', 'error_count']);

export function parseGroupBy(value: string): string {
  if (!Object.hasOwn(GROUP_KEYS, value)) {
    throw invalidQuery('groupBy', `must be one of ${Object.keys(GROUP_KEYS).join(', ')}`);
  }
  return value;
}

/** `columns=cost,p95_latency` → the known column names, in the order given. */
export function parseColumns(value: string | null): string[] {
  if (value === null) return [];
  const columns = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const c of columns) if (!COLUMN_NAMES.includes(c)) throw invalidQuery('columns', `"${c}" is not one of ${COLUMN_NAMES.join(', ')}`);
  return [...new Set(columns)];
}

export interface GroupPage {
  total: number;
  rows: Record<string, unknown>[];
}

interface AggregateRow {
  g: string | number | null;
  requests: number;
  [column: string]: unknown;
}

/** One page of groups, most requests first (ties by key). */
export async function groupRows(store: RecordStore, groupBy: string, columns: readonly string[], where: Where, page: Page): Promise<GroupPage> {
  const key = GROUP_KEYS[groupBy]!;
  const selected = columns.filter((c) => c in AGGREGATES).map((c) => `, ${AGGREGATES[c]} AS ${c}`).join('');
  // Groups are few (models, keys, statuses ...): all are aggregated, then paged here.
  const all = await store.all<AggregateRow>(
    `SELECT ${key} AS g, COUNT(*) AS requests${selected} FROM request_logs WHERE ${where.sql} GROUP BY ${key}`,
    where.params,
  );
  all.sort((a, b) => Number(b.requests) - Number(a.requests) || compareKeys(a.g, b.g));
  const slice = all.slice(page.page * page.size, (page.page + 1) * page.size);
  const percentiles = columns.filter((c) => c in PERCENTILES);
  const ranks = percentiles.length > 0 && slice.length > 0 ? await percentileRows(store, key, percentiles, where) : undefined;
  const rows = slice.map((row) => {
    const out: Record<string, unknown> = { [groupBy]: row.g, requests: Number(row.requests) };
    for (const c of columns) {
      if (c in PERCENTILES) out[c] = ranks?.get(groupKey(row.g))?.[c] ?? null;
      else out[c] = present(c, row[c]);
    }
    return out;
  });
  return { total: all.length, rows };
}

/** Nearest-rank percentiles per group: the smallest latency whose rank is >= p × n. */
async function percentileRows(store: RecordStore, key: string, names: readonly string[], where: Where) {
  const picks = names.map((name) => `, MIN(CASE WHEN rn * 100 >= ${PERCENTILES[name]} * n THEN latency_ms END) AS ${name}`).join('');
  const rows = await store.all<{ g: string | number | null } & Record<string, number | null>>(
    `SELECT g${picks} FROM (
       SELECT ${key} AS g, latency_ms,
              ROW_NUMBER() OVER (PARTITION BY ${key} ORDER BY latency_ms) AS rn,
              COUNT(*) OVER (PARTITION BY ${key}) AS n
       FROM request_logs WHERE ${where.sql}
     ) ranked GROUP BY g`,
    where.params,
  );
  const byGroup = new Map<string, Record<string, number | null>>();
  for (const row of rows) byGroup.set(groupKey(row.g), row);
  return byGroup;
}

function groupKey(g: string | number | null): string {
  return g === null ? '\u0000null' : String(g);
}

function compareKeys(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return String(a) < String(b) ? -1 : 1;
}

function present(column: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  if (TIMESTAMPS.has(column)) return new Date(n).toISOString();
  if (COUNTS.has(column)) return Math.round(n);
  return n;
}
