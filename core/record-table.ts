/**
 * The table of one kind of catalogued record (core/record-catalogue.ts): portable SQL for SQLite and
 * PostgreSQL (`?` placeholders), every column read and inserted, and optimistic updates: a row is
 * written only if nobody changed it since `revision - 1`. Ownership columns never change after the
 * insert (a record does not move between organisations or workspaces).
 */
import type { RecordStore } from './stores.js';

/** Columns an update leaves as inserted. */
const FIXED_COLUMNS: ReadonlySet<string> = new Set(['id', 'organisation_id', 'workspace_id', 'created_at']);

export interface RevisionedRow {
  id: string;
  revision: number;
}

export class RecordTable<R extends RevisionedRow> {
  readonly #select: string;
  readonly #insert: string;
  readonly #update: string;
  readonly #updated: readonly (keyof R & string)[];

  /** `table` and `columns` come from code, never from a request. */
  constructor(protected readonly store: RecordStore, private readonly table: string, private readonly columns: readonly (keyof R & string)[]) {
    const list = columns.join(', ');
    this.#updated = columns.filter((c) => !FIXED_COLUMNS.has(c));
    this.#select = `SELECT ${list} FROM ${table}`;
    this.#insert = `INSERT INTO ${table} (${list}) VALUES (${columns.map(() => '?').join(', ')})`;
    this.#update = `UPDATE ${table} SET ${this.#updated.map((c) => `${c} = ?`).join(', ')} WHERE id = ? AND revision = ?`;
  }

  /** Every row, as stored. */
  rows(): Promise<R[]> {
    return this.store.all<R>(this.#select);
  }

  async insert(row: R): Promise<void> {
    await this.store.run(this.#insert, this.columns.map((c) => row[c]));
  }

  /** Writes the row if nobody changed it since `revision - 1`; false when somebody did. */
  async update(row: R): Promise<boolean> {
    const { changes } = await this.store.run(this.#update, [...this.#updated.map((c) => row[c]), row.id, row.revision - 1]);
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run(`DELETE FROM ${this.table} WHERE id = ?`, [id]);
    return changes === 1;
  }
}
