/**
 * The `mcp_servers` table. Portable SQL (SQLite and PostgreSQL): TEXT/INTEGER columns, JSON kept
 * as TEXT, `?` placeholders. Upstream secrets live sealed in `credentials`, the masks shown instead
 * of them in `masks`, so that answers never need the secret key.
 */
import type { RecordStore } from '../../../core/index.js';
import { fromRow, type McpServer, type McpServerRow } from './record.js';

const MIGRATIONS = [
  `CREATE TABLE mcp_servers (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT,
     url TEXT NOT NULL,
     auth TEXT NOT NULL,
     credentials TEXT,
     masks TEXT NOT NULL,
     allow_all_workspaces INTEGER NOT NULL,
     allowed_workspaces TEXT NOT NULL,
     allowed_tools TEXT,
     denied_tools TEXT NOT NULL,
     secret_mappings TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
];

const COLUMNS = 'id, organisation_id, workspace_id, slug, name, description, url, auth, credentials, masks, allow_all_workspaces, '
  + 'allowed_workspaces, allowed_tools, denied_tools, secret_mappings, revision, created_at, last_updated_at';

export class McpServerRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('agents.mcp-servers', MIGRATIONS);
  }

  async all(): Promise<McpServer[]> {
    const rows = await this.store.all<McpServerRow>(`SELECT ${COLUMNS} FROM mcp_servers`);
    return rows.map(fromRow);
  }

  async insert(r: McpServerRow): Promise<void> {
    await this.store.run(
      `INSERT INTO mcp_servers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [r.id, r.organisation_id, r.workspace_id, r.slug, r.name, r.description, r.url, r.auth, r.credentials, r.masks,
        r.allow_all_workspaces, r.allowed_workspaces, r.allowed_tools, r.denied_tools, r.secret_mappings, r.revision,
        r.created_at, r.last_updated_at],
    );
  }

  /** Writes the row if nobody changed it since `revision - 1`; false when somebody did. */
  async update(r: McpServerRow): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE mcp_servers SET slug = ?, name = ?, description = ?, url = ?, auth = ?, credentials = ?, masks = ?,
         allow_all_workspaces = ?, allowed_workspaces = ?, allowed_tools = ?, denied_tools = ?, secret_mappings = ?,
         revision = ?, last_updated_at = ?
       WHERE id = ? AND revision = ?`,
      [r.slug, r.name, r.description, r.url, r.auth, r.credentials, r.masks, r.allow_all_workspaces, r.allowed_workspaces,
        r.allowed_tools, r.denied_tools, r.secret_mappings, r.revision, r.last_updated_at, r.id, r.revision - 1],
    );
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM mcp_servers WHERE id = ?', [id]);
    return changes === 1;
  }
}
