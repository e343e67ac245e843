/**
 * The `secret_references` table, portable SQL for SQLite and PostgreSQL (TEXT/INTEGER columns,
 * JSON as TEXT, `?` placeholders). The manager's secret settings live sealed in `sealed_config`.
 */
import { RecordTable, type RecordStore } from '../../../core/index.js';
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

const COLUMNS: readonly (keyof SecretReferenceRow & string)[] = [
  'id', 'organisation_id', 'slug', 'name', 'description', 'manager', 'manager_config', 'sealed_config',
  'secret_fields', 'secret_path', 'secret_key', 'allow_all_workspaces', 'allowed_workspaces', 'revision',
  'created_at', 'last_updated_at',
];

export class SecretReferenceRepo extends RecordTable<SecretReferenceRow> {
  constructor(store: RecordStore) {
    super(store, 'secret_references', COLUMNS);
  }

  init(): Promise<void> {
    return this.store.migrate('security.secret-references', MIGRATIONS);
  }

  async all(): Promise<SecretReference[]> {
    return (await this.rows()).map(fromRow);
  }
}
