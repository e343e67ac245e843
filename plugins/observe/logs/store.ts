/**
 * The log table's reads and writes. On SQLite a batch is written as multi-row INSERTs whose row
 * counts are powers of two (a batch of 300: 256 + 32 + 8 + 4), so at most log2(batchSize) + 1
 * statement texts ever exist and prepared-statement caches stay small (one text per row count would
 * prepare a new statement of thousands of parameters for almost every batch); they go to the
 * store's batch writer (a worker thread) as one transaction, off the event loop, or else are run
 * one by one (each atomic: a log batch needs no transaction). PostgreSQL gets a whole batch as one
 * statement of one array per column (`unnest`): one text for every batch size, 34 parameters
 * instead of 34 per row, one round trip.
 */
import type { BatchStatement, Page, RecordStore } from '../../../core/index.js';
import { toWhere, type LogFilter, type ViewScope } from './filter.js';
import { groupRows, type GroupPage } from './groups.js';
import { seriesOf, type Series, type SeriesRange } from './series.js';
import { COLUMNS, MIGRATIONS, PG_TYPES, TRACE_INDEX, type LogRow } from './schema.js';

const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_HEAD = `INSERT INTO request_logs (${COLUMNS.join(', ')}) VALUES `;
/** Columns of the list view: everything but the bodies. */
const PG_INSERT = `INSERT INTO request_logs (${COLUMNS.join(', ')}) SELECT * FROM unnest(${PG_TYPES.map((t) => `?::${t}[]`).join(', ')})`;
const LIST_COLUMNS = COLUMNS.filter((c) => c !== 'request_body' && c !== 'response_body').join(', ');
function largestPowerOfTwo(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/** PostgreSQL text cannot hold U+0000: a logged body or header keeps the rest of its text. */
function pgStorable(value: unknown): unknown {
  return typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
}

/** Rows deleted per statement by the retention sweep, so one sweep never holds the store for long. */
export const SWEEP_CHUNK = 5_000;

export class LogStore {
  readonly #insertSql = new Map<number, string>();

  constructor(readonly store: RecordStore) {}

  async init(indexTraceIds: boolean): Promise<void> {
    await this.store.migrate('observe.logs', MIGRATIONS);
    if (indexTraceIds) await this.store.run(TRACE_INDEX);
  }

  async insert(rows: readonly unknown[][]): Promise<void> {
    if (this.store.dialect === 'postgres') return this.#insertColumns(rows);
    const statements: BatchStatement[] = [];
    let at = 0;
    while (at < rows.length) {
      const n = largestPowerOfTwo(rows.length - at);
      // Filled by push, not sized ahead: an array made with holes stays one to V8, whose
      // JSON.stringify then reads every element the slow way.
      const params: unknown[] = [];
      for (let i = at; i < at + n; i++) params.push(...rows[i]!);
      statements.push({ sql: this.#sql(n), params });
      at += n;
    }
    const writer = this.store.batchWriter;
    if (writer) return writer.write(statements);
    for (const { sql, params } of statements) await this.store.run(sql, params);
  }

  async #insertColumns(rows: readonly unknown[][]): Promise<void> {
    const columns = COLUMNS.map(() => new Array<unknown>(rows.length));
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let c = 0; c < row.length; c++) columns[c]![r] = pgStorable(row[c]);
    }
    await this.store.run(PG_INSERT, columns);
  }

  #sql(rows: number): string {
    let sql = this.#insertSql.get(rows);
    if (!sql) {
      sql = INSERT_HEAD + new Array(rows).fill(ROW_PLACEHOLDERS).join(', ');
      this.#insertSql.set(rows, sql);
    }
    return sql;
  }

  async list(filter: LogFilter, scope: ViewScope, page: Page): Promise<{ total: number; rows: LogRow[] }> {
    const where = toWhere(filter, scope);
    const count = await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM request_logs WHERE ${where.sql}`, where.params);
    const rows = await this.store.all<LogRow>(
      `SELECT ${LIST_COLUMNS} FROM request_logs WHERE ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...where.params, page.size, page.page * page.size],
    );
    return { total: Number(count?.n ?? 0), rows };
  }

  get(id: string, scope: ViewScope): Promise<LogRow | undefined> {
    const where = toWhere({}, scope);
    return this.store.get<LogRow>(`SELECT * FROM request_logs WHERE id = ? AND ${where.sql}`, [id, ...where.params]);
  }

  groups(groupBy: string, columns: readonly string[], filter: LogFilter, scope: ViewScope, page: Page): Promise<GroupPage> {
    return groupRows(this.store, groupBy, columns, toWhere(filter, scope), page);
  }

  series(range: SeriesRange, filter: LogFilter, scope: ViewScope): Promise<Series> {
    return seriesOf(this.store, range, toWhere(filter, scope));
  }

  /** Deletes rows that started before `cutoff` (ms), in chunks; returns how many went. */
  async deleteBefore(cutoff: number, pause: () => Promise<void>): Promise<number> {
    let total = 0;
    for (;;) {
      const { changes } = await this.store.run(
        'DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE created_at < ? LIMIT ?)',
        // Whole ms: PostgreSQL will not compare a BIGINT column with a fraction given as its parameter.
        [Math.floor(cutoff), SWEEP_CHUNK],
      );
      total += changes;
      if (changes < SWEEP_CHUNK) return total;
      await pause();
    }
  }
}
