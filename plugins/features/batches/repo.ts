/**
 * Batch records and per-line results in the record store. Portable SQL (`?` placeholders, only
 * `ON CONFLICT DO NOTHING` upserts, one statement per migration step) so a PostgreSQL store can serve it too.
 *
 * `batch_lines` is the source of truth of a managed batch's progress: one row per finished input
 * line (its 1-based line number, whether it succeeded, its output line). A line counts as finished
 * once its row is committed; the output and error files are written from the rows at the end, and
 * the rows are dropped once the batch is terminal.
 */
import type { RecordStore, Scope } from '../../../core/index.js';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE batches (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     status TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     input_file_id TEXT NOT NULL,
     local_input_file_id TEXT,
     completion_window TEXT NOT NULL,
     metadata TEXT,
     created_at BIGINT NOT NULL,
     in_progress_at BIGINT,
     expires_at BIGINT,
     finalizing_at BIGINT,
     completed_at BIGINT,
     failed_at BIGINT,
     expired_at BIGINT,
     cancelling_at BIGINT,
     cancelled_at BIGINT,
     total INTEGER NOT NULL DEFAULT 0,
     completed INTEGER NOT NULL DEFAULT 0,
     failed INTEGER NOT NULL DEFAULT 0,
     errors TEXT,
     output_file_id TEXT,
     error_file_id TEXT,
     principal TEXT NOT NULL,
     sealed TEXT NOT NULL,
     provider TEXT,
     provider_batch_id TEXT,
     provider_object TEXT
   )`,
  'CREATE INDEX batches_by_scope ON batches (organisation_id, id)',
  'CREATE INDEX batches_by_status ON batches (status)',
  `CREATE TABLE batch_lines (
     batch_id TEXT NOT NULL,
     line INTEGER NOT NULL,
     ok INTEGER NOT NULL,
     result TEXT NOT NULL,
     PRIMARY KEY (batch_id, line)
   )`,
];

export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** States a managed batch resumes from after a restart. */
export const ACTIVE_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'finalizing', 'cancelling'];
export const TERMINAL_STATUSES: readonly BatchStatus[] = ['failed', 'completed', 'expired', 'cancelled'];

export interface BatchRow {
  id: string;
  organisation_id: string;
  workspace_id: string;
  kind: 'managed' | 'provider';
  status: BatchStatus;
  endpoint: string;
  input_file_id: string;
  local_input_file_id: string | null;
  completion_window: string;
  /** JSON object or null. */
  metadata: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number | null;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  total: number;
  completed: number;
  failed: number;
  /** JSON array of `{code, message, param, line}` or null. */
  errors: string | null;
  output_file_id: string | null;
  error_file_id: string | null;
  /** JSON of the creator's principal. */
  principal: string;
  /** The config the batch runs with (headers, provider credentials), sealed by the secret box. */
  sealed: string;
  provider: string | null;
  provider_batch_id: string | null;
  /** The provider's last answer for a provider batch (JSON). */
  provider_object: string | null;
}

/** How one finished line is stored: ok 1 = succeeded, 0 = failed, 2 = never ran (expired). */
export const LineState = { FAILED: 0, OK: 1, NOT_RUN: 2 } as const;

export interface LineRow {
  line: number;
  ok: number;
  result: string;
}

type Patch = Partial<Omit<BatchRow, 'id'>>;

const NUMERIC: readonly (keyof BatchRow)[] = [
  'created_at', 'in_progress_at', 'expires_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at',
  'cancelling_at', 'cancelled_at', 'total', 'completed', 'failed',
];
const COLUMNS: readonly (keyof BatchRow)[] = [
  'id', 'organisation_id', 'workspace_id', 'kind', 'status', 'endpoint', 'input_file_id', 'local_input_file_id',
  'completion_window', 'metadata', ...NUMERIC, 'errors', 'output_file_id', 'error_file_id', 'principal', 'sealed',
  'provider', 'provider_batch_id', 'provider_object',
];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM batches`;
/** Rows per multi-row INSERT (4 parameters each: far below every store's parameter limit). */
const INSERT_CHUNK = 100;

export class BatchRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('feature.batches', MIGRATIONS);
  }

  async insert(row: BatchRow): Promise<void> {
    await this.store.run(
      `INSERT INTO batches (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
      COLUMNS.map((c) => row[c]),
    );
  }

  async get(id: string): Promise<BatchRow | undefined> {
    const row = await this.store.get<BatchRow>(`${SELECT} WHERE id = ?`, [id]);
    return row && normalise(row);
  }

  /** Newest first; `after` is the last id of the previous page. */
  async list(scope: Scope, after: string | undefined, limit: number): Promise<BatchRow[]> {
    const where = ['organisation_id = ?'];
    const params: unknown[] = [scope.organisationId];
    if (scope.workspaceId !== '') {
      where.push('workspace_id = ?');
      params.push(scope.workspaceId);
    }
    if (after !== undefined) {
      where.push('id < ?');
      params.push(after);
    }
    params.push(limit);
    const rows = await this.store.all<BatchRow>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`, params);
    return rows.map(normalise);
  }

  async active(): Promise<BatchRow[]> {
    const rows = await this.store.all<BatchRow>(
      `${SELECT} WHERE kind = 'managed' AND status IN (${ACTIVE_STATUSES.map(() => '?').join(', ')}) ORDER BY id`,
      ACTIVE_STATUSES,
    );
    return rows.map(normalise);
  }

  async update(id: string, patch: Patch): Promise<void> {
    const keys = Object.keys(patch) as (keyof Patch)[];
    if (keys.length === 0) return;
    await this.store.run(`UPDATE batches SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ?`, [...keys.map((k) => patch[k]), id]);
  }

  /** Applies `patch` only while the batch is in one of `from`; whether it did. */
  async transition(id: string, from: readonly BatchStatus[], patch: Patch): Promise<boolean> {
    const keys = Object.keys(patch) as (keyof Patch)[];
    const { changes } = await this.store.run(
      `UPDATE batches SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
      [...keys.map((k) => patch[k]), id, ...from],
    );
    return changes > 0;
  }

  async insertLines(batchId: string, rows: readonly LineRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const chunk = rows.slice(start, start + INSERT_CHUNK);
      const params: unknown[] = [];
      for (const row of chunk) params.push(batchId, row.line, row.ok, row.result);
      // A line recorded already (by an instance that lost the batch mid-line) keeps its first result.
      await this.store.run(`INSERT INTO batch_lines (batch_id, line, ok, result) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')} ON CONFLICT (batch_id, line) DO NOTHING`, params);
    }
  }

  /** Line numbers with a stored result (any state). */
  async finishedLines(batchId: string): Promise<Set<number>> {
    const rows = await this.store.all<{ line: number }>('SELECT line FROM batch_lines WHERE batch_id = ?', [batchId]);
    return new Set(rows.map((r) => Number(r.line)));
  }

  async countLines(batchId: string): Promise<{ completed: number; failed: number }> {
    const rows = await this.store.all<{ ok: number; n: number }>('SELECT ok, COUNT(*) AS n FROM batch_lines WHERE batch_id = ? GROUP BY ok', [batchId]);
    let completed = 0;
    let failed = 0;
    for (const row of rows) {
      if (Number(row.ok) === LineState.OK) completed = Number(row.n);
      else if (Number(row.ok) === LineState.FAILED) failed = Number(row.n);
    }
    return { completed, failed };
  }

  /** One page of results in line order: successes (`ok`), or everything else. */
  async pageLines(batchId: string, successes: boolean, afterLine: number, limit: number): Promise<LineRow[]> {
    const rows = await this.store.all<LineRow>(
      `SELECT line, ok, result FROM batch_lines WHERE batch_id = ? AND ok ${successes ? '=' : '<>'} ? AND line > ? ORDER BY line LIMIT ?`,
      [batchId, LineState.OK, afterLine, limit],
    );
    return rows.map((r) => ({ line: Number(r.line), ok: Number(r.ok), result: r.result }));
  }

  async hasLines(batchId: string, successes: boolean): Promise<boolean> {
    return (await this.pageLines(batchId, successes, 0, 1)).length > 0;
  }

  async deleteLines(batchId: string): Promise<void> {
    await this.store.run('DELETE FROM batch_lines WHERE batch_id = ?', [batchId]);
  }

  /** Rows a crash left behind after their batch became terminal. */
  async deleteLinesOfTerminalBatches(): Promise<void> {
    await this.store.run(
      `DELETE FROM batch_lines WHERE batch_id IN (SELECT id FROM batches WHERE status IN (${TERMINAL_STATUSES.map(() => '?').join(', ')}))`,
      TERMINAL_STATUSES,
    );
  }
}

/** Numbers as numbers (a PostgreSQL driver returns BIGINT as text). */
function normalise(row: BatchRow): BatchRow {
  const out = { ...row } as Record<string, unknown>;
  for (const key of NUMERIC) {
    const value = out[key];
    if (value !== null && value !== undefined) out[key] = Number(value);
  }
  return out as unknown as BatchRow;
}
