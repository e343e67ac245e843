/**
 * The `request_logs` table. Portable SQL (SQLite now, PostgreSQL later): TEXT, INTEGER, BIGINT,
 * DOUBLE PRECISION only; booleans as 0/1; JSON as TEXT; `created_at` as BIGINT milliseconds since
 * the epoch (range filters and the retention sweep compare numbers; the API shows ISO 8601).
 * New steps are appended, applied ones are never edited.
 */

export const TABLE = 'request_logs';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE request_logs (
     id TEXT PRIMARY KEY,
     created_at BIGINT NOT NULL,
     organisation_id TEXT,
     workspace_id TEXT,
     api_key_id TEXT,
     trace_id TEXT,
     span_id TEXT,
     parent_span_id TEXT,
     span_name TEXT,
     method TEXT NOT NULL,
     path TEXT NOT NULL,
     endpoint TEXT,
     config_id TEXT,
     prompt_id TEXT,
     provider TEXT,
     integration TEXT,
     model TEXT,
     target TEXT,
     status INTEGER NOT NULL,
     error_code TEXT,
     reason TEXT,
     stream INTEGER NOT NULL,
     latency_ms DOUBLE PRECISION NOT NULL,
     upstream_latency_ms DOUBLE PRECISION,
     prompt_tokens INTEGER,
     completion_tokens INTEGER,
     total_tokens INTEGER,
     cost DOUBLE PRECISION,
     cache_status TEXT,
     retry_count INTEGER NOT NULL,
     metadata TEXT,
     hook_results TEXT,
     request_body TEXT,
     response_body TEXT
   )`,
  // Both indexes grow at their end (time-ordered); ids are time-ordered too (UUIDv7), so an insert
  // touches the last pages of each tree. A trace-id index would be a random insert per row (about
  // doubling the write cost on SQLite): it is optional (`indexTraceIds`, TRACE_INDEX).
  'CREATE INDEX request_logs_org_time ON request_logs (organisation_id, created_at)',
  'CREATE INDEX request_logs_time ON request_logs (created_at)',
];

/** Created when `indexTraceIds` is on (never dropped when it is turned off again). */
export const TRACE_INDEX = 'CREATE INDEX IF NOT EXISTS request_logs_trace ON request_logs (trace_id)';

const PG_TYPE_OF: Partial<Record<string, string>> = {
  created_at: 'bigint', status: 'integer', stream: 'integer', latency_ms: 'double precision', upstream_latency_ms: 'double precision',
  prompt_tokens: 'integer', completion_tokens: 'integer', total_tokens: 'integer', cost: 'double precision', retry_count: 'integer',
};

/** Insert order of the columns; a row is an array of values in this order. */
export const COLUMNS = [
  'id', 'created_at', 'organisation_id', 'workspace_id', 'api_key_id', 'trace_id', 'span_id', 'parent_span_id',
  'span_name', 'method', 'path', 'endpoint', 'config_id', 'prompt_id', 'provider', 'integration', 'model', 'target',
  'status', 'error_code', 'reason', 'stream', 'latency_ms', 'upstream_latency_ms', 'prompt_tokens',
  'completion_tokens', 'total_tokens', 'cost', 'cache_status', 'retry_count', 'metadata', 'hook_results',
  'request_body', 'response_body',
] as const;

export type Column = (typeof COLUMNS)[number];

/** Each column's PostgreSQL type, in COLUMNS order (a batch is inserted as one array per column there). */
export const PG_TYPES: readonly string[] = COLUMNS.map((c) => PG_TYPE_OF[c] ?? 'text');

/** A stored row as read back. */
export type LogRow = {
  [K in Column]: K extends 'created_at' | 'status' | 'stream' | 'latency_ms' | 'retry_count' ? number
    : K extends 'upstream_latency_ms' | 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'cost' ? number | null
      : K extends 'id' | 'method' | 'path' ? string
        : string | null;
};

/**
 * Bound parameters per statement: SQLite allows 32,766, PostgreSQL 65,535. A batch never exceeds
 * this many rows, whatever the option says, so that one multi-row INSERT always fits.
 */
export const MAX_ROWS_PER_INSERT = Math.floor(32_000 / COLUMNS.length);
