/**
 * Stored configs: one `configs` row per config (its latest version number) and one
 * `config_versions` row per version. Versions are immutable. Portable SQL (SQLite, PostgreSQL).
 */
import type { RecordStore } from '../../../core/index.js';

const MIGRATIONS = [
  `CREATE TABLE configs (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     version INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
  `CREATE TABLE config_versions (
     config_id TEXT NOT NULL,
     version INTEGER NOT NULL,
     config TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (config_id, version)
   )`,
];

export interface ConfigRow {
  id: string;
  organisation_id: string;
  workspace_id: string | null;
  slug: string;
  name: string;
  version: number;
  created_at: string;
  last_updated_at: string;
}

const COLUMNS = 'id, organisation_id, workspace_id, slug, name, version, created_at, last_updated_at';

export class ConfigRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('admin.configs', MIGRATIONS);
  }

  /** A config of the organisation by id or slug. */
  find(organisationId: string, ref: string): Promise<ConfigRow | undefined> {
    return this.store.get<ConfigRow>(
      `SELECT ${COLUMNS} FROM configs WHERE organisation_id = ? AND (id = ? OR slug = ?) ORDER BY CASE WHEN id = ? THEN 0 ELSE 1 END LIMIT 1`,
      [organisationId, ref, ref, ref],
    );
  }

  list(organisationId: string): Promise<ConfigRow[]> {
    return this.store.all<ConfigRow>(`SELECT ${COLUMNS} FROM configs WHERE organisation_id = ? ORDER BY created_at, id`, [organisationId]);
  }

  /** The JSON text of one version. */
  async version(id: string, version: number): Promise<string | undefined> {
    const row = await this.store.get<{ config: string }>('SELECT config FROM config_versions WHERE config_id = ? AND version = ?', [id, version]);
    return row?.config;
  }

  async insert(row: ConfigRow, config: string): Promise<void> {
    await this.store.run('INSERT INTO config_versions (config_id, version, config, created_at) VALUES (?, ?, ?, ?)', [row.id, 1, config, row.created_at]);
    await this.store.run(
      `INSERT INTO configs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.organisation_id, row.workspace_id, row.slug, row.name, row.version, row.created_at, row.last_updated_at],
    );
  }

  /** Adds the next version (numbered atomically) and makes it the latest; returns its number. */
  async addVersion(id: string, config: string, at: string): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.store.get<{ version: number }>(
          `INSERT INTO config_versions (config_id, version, config, created_at)
           SELECT ?, COALESCE(MAX(version), 0) + 1, ?, ? FROM config_versions WHERE config_id = ?
           RETURNING version`,
          [id, config, at, id],
        );
        const version = Number(row!.version);
        await this.store.run('UPDATE configs SET version = ?, last_updated_at = ? WHERE id = ? AND version < ?', [version, at, id, version]);
        return version;
      } catch (e) {
        // Two writers took the same number (a shared database): the loser takes the next one.
        if (attempt >= 2) throw e;
      }
    }
  }

  async rename(id: string, fields: { name: string; slug: string }, at: string): Promise<void> {
    await this.store.run('UPDATE configs SET name = ?, slug = ?, last_updated_at = ? WHERE id = ?', [fields.name, fields.slug, at, id]);
  }

  async delete(id: string): Promise<boolean> {
    await this.store.run('DELETE FROM config_versions WHERE config_id = ?', [id]);
    const { changes } = await this.store.run('DELETE FROM configs WHERE id = ?', [id]);
    return changes === 1;
  }
}
