/**
 * The `integrations` table. Portable SQL (SQLite today, PostgreSQL later): TEXT/INTEGER columns,
 * JSON kept as TEXT, `?` placeholders. Credentials live sealed in `credentials`; the masks shown
 * instead of them in `masks`, so that answers never need the secret key.
 */
import type { RecordStore } from '../../../core/index.js';
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

const COLUMNS = 'id, organisation_id, slug, provider_slug, name, description, provider, configurations, credentials, masks, '
  + 'allow_all_workspaces, allowed_workspaces, models, pricing_adjustments, secret_mappings, revision, created_at, last_updated_at';

export class IntegrationRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('admin.integrations', MIGRATIONS);
  }

  async all(): Promise<Integration[]> {
    const rows = await this.store.all<IntegrationRow>(`SELECT ${COLUMNS} FROM integrations`);
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Integration | undefined> {
    const row = await this.store.get<IntegrationRow>(`SELECT ${COLUMNS} FROM integrations WHERE id = ?`, [id]);
    return row && fromRow(row);
  }

  async insert(row: IntegrationRow): Promise<void> {
    await this.store.run(
      `INSERT INTO integrations (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.organisation_id, row.slug, row.provider_slug, row.name, row.description, row.provider, row.configurations,
        row.credentials, row.masks, row.allow_all_workspaces, row.allowed_workspaces, row.models, row.pricing_adjustments,
        row.secret_mappings, row.revision, row.created_at, row.last_updated_at],
    );
  }

  /** Writes the row if nobody changed it since `revision - 1`; false when somebody did. */
  async update(row: IntegrationRow): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE integrations SET slug = ?, provider_slug = ?, name = ?, description = ?, provider = ?, configurations = ?, credentials = ?,
         masks = ?, allow_all_workspaces = ?, allowed_workspaces = ?, models = ?, pricing_adjustments = ?, secret_mappings = ?,
         revision = ?, last_updated_at = ?
       WHERE id = ? AND revision = ?`,
      [row.slug, row.provider_slug, row.name, row.description, row.provider, row.configurations, row.credentials, row.masks,
        row.allow_all_workspaces, row.allowed_workspaces, row.models, row.pricing_adjustments, row.secret_mappings,
        row.revision, row.last_updated_at, row.id, row.revision - 1],
    );
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM integrations WHERE id = ?', [id]);
    return changes === 1;
  }
}
