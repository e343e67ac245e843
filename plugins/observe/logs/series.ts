/**
 * Figures over time (`GET /v1/analytics/graphs/overview`): the logs cut into equal UTC buckets
 * (`bucket`: 1m, 5m, 15m, 1h, 6h, 1d; by default the smallest giving at most 240 points), each with
 * requests, errors, latency percentiles, tokens, cost and cache hits, and the same figures over the
 * whole range as a summary. Portable SQL as in groups.ts: a bucket is `(created_at / size) * size`
 * (integer division on both engines), percentiles are nearest-rank by window functions. Empty
 * buckets are answered too (zero requests, null latency), so a chart's time axis has no holes.
 */
import type { RecordStore } from '../../../core/index.js';
import { invalidQuery, type LogFilter, type Where } from './filter.js';

const MINUTE = 60_000;
export const BUCKETS: Readonly<Record<string, number>> = {
  '1m': MINUTE, '5m': 5 * MINUTE, '15m': 15 * MINUTE, '1h': 60 * MINUTE, '6h': 360 * MINUTE, '1d': 1440 * MINUTE,
};
/** The points a default bucket aims at most, and the most any bucket may give. */
const DEFAULT_POINTS = 240;
export const MAX_POINTS = 1_500;
/** The range when `time_of_generation_min` is not given: the last day up to `..._max` (or now). */
const DEFAULT_SPAN = 1440 * MINUTE;

export interface SeriesRange {
  from: number;
  to: number;
  bucketMs: number;
  bucket: string;
}

/** The range and bucket of a series query; fills `filter.from`/`to` so the WHERE covers exactly the range. */
export function parseSeriesRange(query: URLSearchParams, filter: LogFilter, now: number): SeriesRange {
  const to = filter.to ?? now;
  const from = filter.from ?? to - DEFAULT_SPAN;
  filter.from = from;
  filter.to = to;
  const asked = query.get('bucket');
  if (asked !== null) {
    const size = BUCKETS[asked];
    if (!Object.hasOwn(BUCKETS, asked) || size === undefined) throw invalidQuery('bucket', `must be one of ${Object.keys(BUCKETS).join(', ')}`);
    if (points(from, to, size) > MAX_POINTS) {
      throw invalidQuery('bucket', `gives more than ${MAX_POINTS} points over this range: choose a wider bucket or a shorter range`);
    }
    return { from, to, bucketMs: size, bucket: asked };
  }
  const [bucket, size] = Object.entries(BUCKETS).find(([, ms]) => points(from, to, ms) <= DEFAULT_POINTS) ?? ['1d', BUCKETS['1d']!];
  if (points(from, to, size) > MAX_POINTS) throw invalidQuery('time_of_generation_min', `gives more than ${MAX_POINTS} daily points: shorten the range`);
  return { from, to, bucketMs: size, bucket };
}

function points(from: number, to: number, size: number): number {
  return Math.floor(to / size) - Math.floor(from / size) + 1;
}

export interface Figures {
  requests: number;
  errors: number;
  /** errors / requests; null without requests. */
  error_rate: number | null;
  avg_latency: number | null;
  p50_latency: number | null;
  p95_latency: number | null;
  p99_latency: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Sum of known costs; null when none is known. */
  cost: number | null;
  cache_hits: number;
  /** cache_hits / requests; null without requests. */
  cache_hit_rate: number | null;
}

export interface Series {
  summary: Figures;
  data_points: (Figures & { timestamp: string })[];
}

const SUMS = `COUNT(*) AS requests,
  SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS errors,
  AVG(latency_ms) AS avg_latency,
  SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(total_tokens) AS total_tokens,
  SUM(cost) AS cost,
  SUM(CASE WHEN cache_status IN ('HIT', 'SEMANTIC HIT') THEN 1 ELSE 0 END) AS cache_hits`;

const PERCENTILES: Readonly<Record<string, number>> = { p50_latency: 50, p95_latency: 95, p99_latency: 99 };

type Row = Record<string, number | string | null>;

export async function seriesOf(store: RecordStore, range: SeriesRange, where: Where): Promise<Series> {
  // The size is one of BUCKETS (an integer we chose), so it is written into the SQL: bound, its type would be the engine's guess.
  const bucket = `(created_at / ${range.bucketMs}) * ${range.bucketMs}`;
  const [sums, ranks, total, totalRanks] = await Promise.all([
    store.all<Row>(`SELECT ${bucket} AS t, ${SUMS} FROM request_logs WHERE ${where.sql} GROUP BY ${bucket}`, where.params),
    store.all<Row>(percentileSql(bucket, where), where.params),
    store.get<Row>(`SELECT ${SUMS} FROM request_logs WHERE ${where.sql}`, where.params),
    store.get<Row>(percentileSql(undefined, where), where.params),
  ]);
  const rankOf = new Map(ranks.map((r) => [Number(r['t']), r]));
  const sumOf = new Map(sums.map((r) => [Number(r['t']), r]));
  const data_points: Series['data_points'] = [];
  const first = Math.floor(range.from / range.bucketMs) * range.bucketMs;
  for (let t = first; t <= range.to; t += range.bucketMs) {
    data_points.push({ timestamp: new Date(t).toISOString(), ...figures(sumOf.get(t), rankOf.get(t)) });
  }
  return { summary: figures(total, totalRanks), data_points };
}

/** Nearest-rank percentiles of latency, per bucket (or over all rows when `bucket` is undefined). */
function percentileSql(bucket: string | undefined, where: Where): string {
  const picks = Object.entries(PERCENTILES).map(([name, p]) => `MIN(CASE WHEN rn * 100 >= ${p} * n THEN latency_ms END) AS ${name}`).join(', ');
  const partition = bucket ? `PARTITION BY ${bucket} ` : '';
  return `SELECT ${bucket ? 't, ' : ''}${picks} FROM (
      SELECT ${bucket ? `${bucket} AS t, ` : ''}latency_ms,
             ROW_NUMBER() OVER (${partition}ORDER BY latency_ms) AS rn,
             COUNT(*) OVER (${partition.trim()}) AS n
      FROM request_logs WHERE ${where.sql}
    ) ranked${bucket ? ' GROUP BY t' : ''}`;
}

function figures(sums: Row | undefined, ranks: Row | undefined): Figures {
  const requests = count(sums?.['requests']);
  const errors = count(sums?.['errors']);
  const hits = count(sums?.['cache_hits']);
  return {
    requests,
    errors,
    error_rate: requests ? errors / requests : null,
    avg_latency: requests ? number(sums?.['avg_latency']) : null,
    p50_latency: requests ? number(ranks?.['p50_latency']) : null,
    p95_latency: requests ? number(ranks?.['p95_latency']) : null,
    p99_latency: requests ? number(ranks?.['p99_latency']) : null,
    prompt_tokens: count(sums?.['prompt_tokens']),
    completion_tokens: count(sums?.['completion_tokens']),
    total_tokens: count(sums?.['total_tokens']),
    cost: number(sums?.['cost']),
    cache_hits: hits,
    cache_hit_rate: requests ? hits / requests : null,
  };
}

function number(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function count(value: unknown): number {
  return value === null || value === undefined ? 0 : Math.round(Number(value));
}
