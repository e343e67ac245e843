/**
 * The `secret_references` table, portable SQL for SQLite and PostgreSQL (TEXT/INTEGER columns,
 * JSON as TEXT, `?` placeholders). The manager's secret settings live sealed in `sealed_config`.
 */
import type { RecordStore } from '../../../core/index.js';
import { fromRow, type SecretReference, type SecretReferenceRow } from './record.js';

const MIGRATIONS = [
  `CREATE TABLE secret_references (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT,
     manager TEXT NOT NULL,
     manager_config TEXT NOT NULL,
     sealed_config TEXT,
     secret_fields TEXT NOT NULL,
     secret_path TEXT NOT NULL,
     secret_key TEXT,
     allow_all_workspaces INTEGER NOT NULL,
     allowed_workspaces TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
];

const COLUMNS = 'id, organisation_id, slug, name, description, manager, manager_config, sealed_config, secret_fields, secret_path, '
  + 'secret_key, allow_all_workspaces, allowed_workspaces, revision, created_at, last_updated_at';

const values = (r: SecretReferenceRow) => [
  r.id, r.organisation_id, r.slug, r.name, r.description, r.manager, r.manager_config, r.sealed_config, r.secret_fields, r.secret_path,
  r.secret_key, r.allow_all_workspaces, r.allowed_workspaces, r.revision, r.created_at, r.last_updated_at,
];

export class SecretReferenceRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('security.secret-references', MIGRATIONS);
  }

  async all(): Promise<SecretReference[]> {
    const rows = await this.store.all<SecretReferenceRow>(`SELECT ${COLUMNS} FROM secret_references`);
    return rows.map(fromRow);
  }

  async insert(row: SecretReferenceRow): Promise<void> {
    await this.store.run(`INSERT INTO secret_references (${COLUMNS}) VALUES (${COLUMNS.split(',').map(() => '?').join(', ')})`, values(row));
  }

  /** Writes the row if nobody changed it since `revision - 1`; false when somebody did. */
  async update(row: SecretReferenceRow): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE secret_references SET slug = ?, name = ?, description = ?, manager = ?, manager_config = ?, sealed_config = ?,
         secret_fields = ?, secret_path = ?, secret_key = ?, allow_all_workspaces = ?, allowed_workspaces = ?, revision = ?, last_updated_at = ?
       WHERE id = ? AND revision = ?`,
      [row.slug, row.name, row.description, row.manager, row.manager_config, row.sealed_config, row.secret_fields, row.secret_path,
        row.secret_key, row.allow_all_workspaces, row.allowed_workspaces, row.revision, row.last_updated_at, row.id, row.revision - 1],
    );
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM secret_references WHERE id = ?', [id]);
    return changes === 1;
  }
}
