/**
 * The `feedback` table: one row per feedback, linked to requests by trace id (not by log id: the
 * log of a request is written in batches after its answer, and feedback may arrive first). A row
 * belongs to the caller's organisation and workspace (null for organisation-level keys): it attaches
 * to logs of that organisation, and of that workspace when it has one. Portable SQL (SQLite,
 * PostgreSQL): TEXT, INTEGER, BIGINT, DOUBLE PRECISION; `created_at` in ms since the epoch.
 */
import { isoOrNull, type RecordStore } from '../../../core/index.js';
import type { FeedbackDataPoint, FeedbackFigures, FeedbackRange } from '../analytics/contract.js';
import type { FeedbackTarget, LogFeedbackEntry, ViewScope } from '../logs/contract.js';

const MIGRATIONS = [
  `CREATE TABLE feedback (
     id TEXT PRIMARY KEY,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT,
     api_key_id TEXT,
     trace_id TEXT NOT NULL,
     value INTEGER NOT NULL,
     weight DOUBLE PRECISION NOT NULL,
     metadata TEXT
   )`,
  'CREATE INDEX feedback_by_trace ON feedback (organisation_id, trace_id)',
  'CREATE INDEX feedback_by_time ON feedback (organisation_id, created_at)',
];

const DAY_MS = 24 * 60 * 60_000;

export interface Writer {
  organisationId: string;
  workspaceId: string | null;
  keyId: string | null;
}

export interface NewFeedback {
  trace_id: string;
  value: number;
  weight: number;
  metadata: Record<string, unknown> | null;
}

export interface FeedbackChange {
  value?: number;
  weight?: number;
  metadata?: Record<string, unknown>;
}

interface Row {
  id: string;
  created_at: number;
  organisation_id: string;
  workspace_id: string | null;
  api_key_id: string | null;
  value: number;
  weight: number;
  metadata: string | null;
}

interface FiguresRow {
  day?: number;
  total: number;
  average_value: number | null;
  weighted_sum: number | null;
  weight_sum: number | null;
}

export class FeedbackStore {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('observe.feedback', MIGRATIONS);
  }

  async insert(id: string, writer: Writer, feedback: NewFeedback, now: number): Promise<void> {
    await this.store.run(
      `INSERT INTO feedback (id, created_at, updated_at, organisation_id, workspace_id, api_key_id, trace_id, value, weight, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, now, now, writer.organisationId, writer.workspaceId, writer.keyId, feedback.trace_id, feedback.value, feedback.weight,
        feedback.metadata === null ? null : JSON.stringify(feedback.metadata)],
    );
  }

  /** Changes a feedback the writer may reach (its organisation; its workspace unless organisation-level); false when none. */
  async update(id: string, writer: Writer, change: FeedbackChange, now: number): Promise<boolean> {
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [now];
    if (change.value !== undefined) { sets.push('value = ?'); params.push(change.value); }
    if (change.weight !== undefined) { sets.push('weight = ?'); params.push(change.weight); }
    if (change.metadata !== undefined) { sets.push('metadata = ?'); params.push(JSON.stringify(change.metadata)); }
    const where = writer.workspaceId === null ? 'id = ? AND organisation_id = ?' : 'id = ? AND organisation_id = ? AND workspace_id = ?';
    params.push(id, writer.organisationId);
    if (writer.workspaceId !== null) params.push(writer.workspaceId);
    const { changes } = await this.store.run(`UPDATE feedback SET ${sets.join(', ')} WHERE ${where}`, params);
    return changes === 1;
  }

  async forLog(log: FeedbackTarget): Promise<LogFeedbackEntry[]> {
    const rows = await this.store.all<Row>(
      `SELECT id, created_at, organisation_id, workspace_id, api_key_id, value, weight, metadata FROM feedback
       WHERE organisation_id = ? AND trace_id = ? AND (workspace_id IS NULL OR workspace_id = ?)
       ORDER BY created_at, id`,
      [log.organisationId, log.traceId, log.workspaceId ?? ''],
    );
    return rows.map((row) => ({
      id: row.id,
      value: Number(row.value),
      weight: Number(row.weight),
      metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
      api_key_id: row.api_key_id,
      created_at: isoOrNull(Number(row.created_at)) ?? '',
    }));
  }

  async graph(scope: ViewScope, range: FeedbackRange): Promise<{ summary: FeedbackFigures; data_points: FeedbackDataPoint[] }> {
    const { sql, params } = whereOf(scope, range);
    const figures = 'COUNT(*) AS total, AVG(value) AS average_value, SUM(value * weight) AS weighted_sum, SUM(weight) AS weight_sum';
    const summary = await this.store.get<FiguresRow>(`SELECT ${figures} FROM feedback WHERE ${sql}`, params);
    // Integer division of BIGINT ms: the day number, the same on SQLite and PostgreSQL.
    const days = await this.store.all<FiguresRow>(
      `SELECT created_at / ${DAY_MS} AS day, ${figures} FROM feedback WHERE ${sql} GROUP BY created_at / ${DAY_MS} ORDER BY day`,
      params,
    );
    return {
      summary: figuresOf(summary ?? { total: 0, average_value: null, weighted_sum: null, weight_sum: null }),
      data_points: days.map((row) => ({ timestamp: new Date(Number(row.day) * DAY_MS).toISOString(), ...figuresOf(row) })),
    };
  }
}

function whereOf(scope: ViewScope, range: FeedbackRange): { sql: string; params: unknown[] } {
  const clauses = ['organisation_id = ?'];
  const params: unknown[] = [scope.organisationId];
  if (scope.workspaceId !== undefined) { clauses.push('workspace_id = ?'); params.push(scope.workspaceId); }
  if (scope.keyIds !== undefined) {
    clauses.push(scope.keyIds.length === 0 ? '1 = 0' : `api_key_id IN (${scope.keyIds.map(() => '?').join(', ')})`);
    params.push(...scope.keyIds);
  }
  // Whole ms: PostgreSQL will not compare a BIGINT column with a fraction.
  if (range.from !== undefined) { clauses.push('created_at >= ?'); params.push(Math.floor(range.from)); }
  if (range.to !== undefined) { clauses.push('created_at <= ?'); params.push(Math.floor(range.to)); }
  return { sql: clauses.join(' AND '), params };
}

function figuresOf(row: FiguresRow): FeedbackFigures {
  const total = Number(row.total ?? 0);
  const weightSum = row.weight_sum === null ? 0 : Number(row.weight_sum);
  return {
    total,
    average_value: total === 0 || row.average_value === null ? null : round(Number(row.average_value)),
    weighted_average_value: weightSum > 0 ? round(Number(row.weighted_sum) / weightSum) : null,
  };
}

/** Six decimals: figures read the same from both engines (their float sums may differ in the last bits). */
function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
