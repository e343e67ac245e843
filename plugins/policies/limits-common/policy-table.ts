/**
 * What every policy table shares (rate limits, usage limits): read one, a partial update that
 * stamps `last_updated_at`, a filtered, paginated list with its total, and all active policies.
 * A plugin's store extends it with its own columns, row mapping and inserts.
 */
import type { RecordStore } from '../../../core/index.js';

export interface PolicyListFilter {
  organisationId: string;
  /** Only this workspace (workspace keys see their own). */
  workspaceId?: string;
  status: string;
  type?: string;
}

export interface PolicyTableShape<Row, Policy> {
  table: string;
  /** The column list of SELECTs, comma-separated. */
  columns: string;
  /** Columns stored as JSON text. */
  jsonColumns: ReadonlySet<string>;
  toPolicy(row: Row): Policy;
  /** ISO time stamped on updates. */
  now(): string;
}

/** `Changes`: the fields an update may set. */
export class PolicyTable<Row, Policy, Changes extends object> {
  constructor(protected readonly store: RecordStore, private readonly shape: PolicyTableShape<Row, Policy>) {}

  async get(id: string): Promise<Policy | undefined> {
    const { table, columns, toPolicy } = this.shape;
    const row = await this.store.get<Row>(`SELECT ${columns} FROM ${table} WHERE id = ?`, [id]);
    return row && toPolicy(row);
  }

  /** Sets the defined `changes` (JSON-encoding the JSON columns) and `last_updated_at`; the row as it is then. */
  async update(id: string, changes: Changes): Promise<Policy | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(this.shape.jsonColumns.has(column) ? JSON.stringify(value) : value);
    }
    sets.push('last_updated_at = ?');
    params.push(this.shape.now(), id);
    await this.store.run(`UPDATE ${this.shape.table} SET ${sets.join(', ')} WHERE id = ?`, params);
    return this.get(id);
  }

  /** One page in creation order, and how many rows match in all. */
  async list(filter: PolicyListFilter, offset: number, limit: number): Promise<{ data: Policy[]; total: number }> {
    const { table, columns, toPolicy } = this.shape;
    const where = ['organisation_id = ?', 'status = ?'];
    const params: unknown[] = [filter.organisationId, filter.status];
    if (filter.workspaceId !== undefined) {
      where.push('workspace_id = ?');
      params.push(filter.workspaceId);
    }
    if (filter.type !== undefined) {
      where.push('type = ?');
      params.push(filter.type);
    }
    const clause = where.join(' AND ');
    const count = await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`, params);
    const rows = await this.store.all<Row>(`SELECT ${columns} FROM ${table} WHERE ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, limit, offset]);
    return { data: rows.map(toPolicy), total: Number(count?.n ?? 0) };
  }

  async allActive(): Promise<Policy[]> {
    const { table, columns, toPolicy } = this.shape;
    const rows = await this.store.all<Row>(`SELECT ${columns} FROM ${table} WHERE status = ?`, ['active']);
    return rows.map(toPolicy);
  }
}
