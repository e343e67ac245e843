/**
 * The log table's reads and writes. Writes are multi-row INSERTs, one statement per batch (the
 * RecordStore has no transaction method; one statement is atomic on every engine). The statement
 * text depends only on the row count, so prepared-statement caches stay small.
 */
import type { RecordStore } from '../../core/index.js';
import { toWhere, type LogFilter, type Page, type ViewScope } from './filter.js';
import { groupRows, type GroupPage } from './groups.js';
import { COLUMNS, MIGRATIONS, type LogRow } from './schema.js';

const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_HEAD = `INSERT INTO request_logs (${COLUMNS.join(', ')}) VALUES `;
/** Columns of the list view: everything but the bodies. */
const LIST_COLUMNS = COLUMNS.filter((c) => c !== 'request_body' && c !== 'response_body').join(', ');
/** Rows deleted per statement by the retention sweep, so one sweep never holds the store for long. */
export const SWEEP_CHUNK = 5_000;

export class LogStore {
  readonly #insertSql = new Map<number, string>();

  constructor(readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('observe.logs', MIGRATIONS);
  }

  async insert(rows: readonly unknown[][]): Promise<void> {
    if (rows.length === 0) return;
    let sql = this.#insertSql.get(rows.length);
    if (!sql) {
      sql = INSERT_HEAD + new Array(rows.length).fill(ROW_PLACEHOLDERS).join(', ');
      this.#insertSql.set(rows.length, sql);
    }
    await this.store.run(sql, rows.flat());
  }

  async list(filter: LogFilter, scope: ViewScope, page: Page): Promise<{ total: number; rows: LogRow[] }> {
    const where = toWhere(filter, scope);
    const count = await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM request_logs WHERE ${where.sql}`, where.params);
    const rows = await this.store.all<LogRow>(
      `SELECT ${LIST_COLUMNS} FROM request_logs WHERE ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...where.params, page.size, page.current * page.size],
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

  /** Deletes rows that started before `cutoff` (ms), in chunks; returns how many went. */
  async deleteBefore(cutoff: number, pause: () => Promise<void>): Promise<number> {
    let total = 0;
    for (;;) {
      const { changes } = await this.store.run(
        'DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE created_at < ? LIMIT ?)',
        [cutoff, SWEEP_CHUNK],
      );
      total += changes;
      if (changes < SWEEP_CHUNK) return total;
      await pause();
    }
  }
}
