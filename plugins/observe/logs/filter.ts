/**
 * Query filters shared by the log list, log groups and analytics routes (paging is core's
 * `pageOf`: `current_page` from 0, `page_size` 1 to 100, default 50), and how they become a
 * portable SQL `WHERE` (`?` placeholders; metadata matched with LIKE on the stored JSON text, so no
 * engine-specific JSON function is needed). Unknown query keys are refused (a typo must not silently
 * widen a query).
 */
import { Errors, isDateInRange } from '../../../core/index.js';

export interface LogFilter {
  from?: number;
  to?: number;
  statuses?: number[];
  providers?: string[];
  models?: string[];
  /** Id or slug as given; resolved to an id by the caller. */
  workspace?: string;
  apiKeyIds?: string[];
  traceId?: string;
  spanId?: string;
  configIds?: string[];
  promptIds?: string[];
  cacheStatuses?: string[];
  metadata?: Record<string, string>;
}

/** What the caller may see (visibility.ts). */
export interface ViewScope {
  organisationId: string;
  /** Only this workspace's rows (workspace keys, or a workspace filter). */
  workspaceId?: string;
  /** Only these keys' rows (members and managers when the visibility settings say so). */
  keyIds?: readonly string[];
  /** Whether `metadata` is shown (organisationAdminsViewLogMetadata). */
  showMetadata: boolean;
}

/** Our cap on list-valued filters (`status_code=200,201,...`). */
const MAX_LIST = 100;

const FILTER_KEYS = new Set([
  'time_of_generation_min', 'time_of_generation_max', 'status_code', 'provider', 'ai_service', 'model', 'workspace_id',
  'api_key_id', 'trace_id', 'span_id', 'config_id', 'prompt_id', 'cache_status', 'metadata', 'current_page', 'page_size',
]);

export function invalidQuery(name: string, rule: string) {
  return Errors.invalidRequest(`query.${name}: ${rule}`, name, 'invalid_query');
}

export function parseFilter(query: URLSearchParams, extraKeys: ReadonlySet<string> = new Set()): LogFilter {
  for (const key of query.keys()) {
    if (!FILTER_KEYS.has(key) && !extraKeys.has(key)) throw invalidQuery(key, 'is not a known filter');
  }
  const filter: LogFilter = {};
  const from = time(query, 'time_of_generation_min');
  const to = time(query, 'time_of_generation_max');
  if (from !== undefined) filter.from = from;
  if (to !== undefined) filter.to = to;
  if (from !== undefined && to !== undefined && from > to) throw invalidQuery('time_of_generation_min', 'must not be after time_of_generation_max');
  const statuses = list(query, 'status_code')?.map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 100 || n > 599) throw invalidQuery('status_code', 'must be HTTP status codes (100 to 599), comma-separated');
    return n;
  });
  if (statuses) filter.statuses = statuses;
  const providers = [...(list(query, 'provider') ?? []), ...(list(query, 'ai_service') ?? [])];
  if (providers.length > 0) filter.providers = providers;
  assign(filter, 'models', list(query, 'model'));
  assign(filter, 'apiKeyIds', list(query, 'api_key_id'));
  assign(filter, 'configIds', list(query, 'config_id'));
  assign(filter, 'promptIds', list(query, 'prompt_id'));
  assign(filter, 'cacheStatuses', list(query, 'cache_status')?.map((s) => s.toUpperCase()));
  const workspace = single(query, 'workspace_id');
  if (workspace !== undefined) filter.workspace = workspace;
  const traceId = single(query, 'trace_id');
  if (traceId !== undefined) filter.traceId = traceId;
  const spanId = single(query, 'span_id');
  if (spanId !== undefined) filter.spanId = spanId;
  const metadata = query.get('metadata');
  if (metadata !== null) filter.metadata = parseMetadata(metadata);
  return filter;
}

function assign<K extends keyof LogFilter>(filter: LogFilter, key: K, value: LogFilter[K] | undefined): void {
  if (value !== undefined && (!Array.isArray(value) || value.length > 0)) filter[key] = value;
}

function single(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const v = value.trim();
  if (v === '' || v.length > 256) throw invalidQuery(name, 'must be 1 to 256 characters');
  return v;
}

function list(query: URLSearchParams, name: string): string[] | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0) throw invalidQuery(name, 'must not be empty');
  if (items.length > MAX_LIST) throw invalidQuery(name, `must have at most ${MAX_LIST} values`);
  for (const item of items) if (item.length > 256) throw invalidQuery(name, 'values must be at most 256 characters');
  return items;
}

/** ISO 8601 date-time, or milliseconds since the epoch. */
function time(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!isDateInRange(ms)) throw invalidQuery(name, 'must be an ISO 8601 date-time or milliseconds since the epoch, within years 0000 to 9999');
  return ms;
}

function parseMetadata(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidQuery('metadata', 'must be a JSON object of string values');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidQuery('metadata', 'must be a JSON object of string values');
  for (const v of Object.values(value)) if (typeof v !== 'string') throw invalidQuery('metadata', 'must be a JSON object of string values');
  return value as Record<string, string>;
}

export interface Where {
  sql: string;
  params: unknown[];
}

/** The `WHERE` of a query: the caller's scope first (always), then the filters. */
export function toWhere(filter: LogFilter, scope: ViewScope): Where {
  const clauses = ['organisation_id = ?'];
  const params: unknown[] = [scope.organisationId];
  const eq = (column: string, value: unknown) => {
    clauses.push(`${column} = ?`);
    params.push(value);
  };
  const anyOf = (column: string, values: readonly unknown[] | undefined) => {
    if (!values) return;
    clauses.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  if (scope.workspaceId !== undefined) eq('workspace_id', scope.workspaceId);
  anyOf('api_key_id', scope.keyIds);
  if (filter.from !== undefined) {
    clauses.push('created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push('created_at <= ?');
    params.push(filter.to);
  }
  anyOf('status', filter.statuses);
  anyOf('provider', filter.providers);
  anyOf('model', filter.models);
  anyOf('api_key_id', filter.apiKeyIds);
  anyOf('config_id', filter.configIds);
  anyOf('prompt_id', filter.promptIds);
  anyOf('cache_status', filter.cacheStatuses);
  if (filter.traceId !== undefined) eq('trace_id', filter.traceId);
  if (filter.spanId !== undefined) eq('span_id', filter.spanId);
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    clauses.push("metadata LIKE ? ESCAPE '\\'");
    params.push(`%${escapeLike(JSON.stringify(key) + ':' + JSON.stringify(value))}%`);
  }
  return { sql: clauses.join(' AND '), params };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}
