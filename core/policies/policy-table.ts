/**
 * The two queries every policy table shares (rate limits, usage limits): a partial update that
 * stamps `last_updated_at`, and a filtered, paginated list with its total.
 */
import type { RecordStore } from '../stores.js';

export interface PolicyListFilter {
  organisationId: string;
  /** Only this workspace (workspace keys see their own). */
  workspaceId?: string;
  status: string;
  type?: string;
}

/** Sets the defined `changes` (JSON-encoding `jsonColumns`) and `last_updated_at` on row `id`. */
export async function updatePolicyRow(
  store: RecordStore, table: string, id: string, changes: object, jsonColumns: ReadonlySet<string>, updatedAt: string,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    sets.push(`${column} = ?`);
    params.push(jsonColumns.has(column) ? JSON.stringify(value) : value);
  }
  sets.push('last_updated_at = ?');
  params.push(updatedAt, id);
  await store.run(`UPDATE ${table} SET ${sets.join(', ')} WHERE id = ?`, params);
}

/** One page of a policy table in creation order, and how many rows match in all. */
export async function listPolicyRows<R>(
  store: RecordStore, table: string, columns: string, filter: PolicyListFilter, offset: number, limit: number,
): Promise<{ rows: R[]; total: number }> {
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
  const count = await store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`, params);
  const rows = await store.all<R>(`SELECT ${columns} FROM ${table} WHERE ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`, [...params, limit, offset]);
  return { rows, total: Number(count?.n ?? 0) };
}
