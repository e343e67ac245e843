/**
 * The `integrations` table. Portable SQL (SQLite today, PostgreSQL later): TEXT/INTEGER columns,
 * JSON kept as TEXT, `?` placeholders. Credentials live sealed in `credentials`; the masks shown
 * instead of them in `masks`, so that answers never need the secret key.
 */
import { RecordTable, type RecordStore } from '../../../core/index.js';
import { fromRow, type Integration, type IntegrationRow } from './record.js';

const MIGRATIONS = [
  `CREATE TABLE integrations (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     slug TEXT NOT NULL,
     provider_slug TEXT,
     name TEXT NOT NULL,
     description TEXT,
     provider TEXT NOT NULL,
     configurations TEXT NOT NULL,
     credentials TEXT,
     masks TEXT NOT NULL,
     allow_all_workspaces INTEGER NOT NULL,
     allowed_workspaces TEXT NOT NULL,
     models TEXT NOT NULL,
     pricing_adjustments TEXT,
     secret_mappings TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
];

const COLUMNS: readonly (keyof IntegrationRow & string)[] = [
  'id', 'organisation_id', 'slug', 'provider_slug', 'name', 'description', 'provider', 'configurations',
  'credentials', 'masks', 'allow_all_workspaces', 'allowed_workspaces', 'models', 'pricing_adjustments',
  'secret_mappings', 'revision', 'created_at', 'last_updated_at',
];

export class IntegrationRepo extends RecordTable<IntegrationRow> {
  constructor(store: RecordStore) {
    super(store, 'integrations', COLUMNS);
  }

  init(): Promise<void> {
    return this.store.migrate('admin.integrations', MIGRATIONS);
  }

  async all(): Promise<Integration[]> {
    return (await this.rows()).map(fromRow);
  }
}
