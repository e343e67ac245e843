/**
 * The `agent_servers` table, on either record store (portable SQL: TEXT/INTEGER columns, JSON as
 * TEXT, `?` placeholders). The auth secret lives sealed in `auth_secret`.
 */
import type { RecordStore } from '../../../core/index.js';
import { fromRow, type AgentServer, type AgentServerRow } from './record.js';

const MIGRATIONS = [
  `CREATE TABLE agent_servers (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT,
     url TEXT NOT NULL,
     auth_type TEXT NOT NULL,
     auth_secret TEXT,
     auth_header_names TEXT NOT NULL,
     workspace_id TEXT,
     allow_all_workspaces INTEGER NOT NULL,
     allowed_workspaces TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, slug)
   )`,
];

const COLUMNS = 'id, organisation_id, slug, name, description, url, auth_type, auth_secret, auth_header_names, '
  + 'workspace_id, allow_all_workspaces, allowed_workspaces, revision, created_at, last_updated_at';

export class AgentServerRepo {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('agents.agent-servers', MIGRATIONS);
  }

  async all(): Promise<AgentServer[]> {
    const rows = await this.store.all<AgentServerRow>(`SELECT ${COLUMNS} FROM agent_servers`);
    return rows.map(fromRow);
  }

  async insert(row: AgentServerRow): Promise<void> {
    await this.store.run(
      `INSERT INTO agent_servers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.organisation_id, row.slug, row.name, row.description, row.url, row.auth_type, row.auth_secret, row.auth_header_names,
        row.workspace_id, row.allow_all_workspaces, row.allowed_workspaces, row.revision, row.created_at, row.last_updated_at],
    );
  }

  /** Writes the row if nobody changed it since `revision - 1`; false when somebody did. */
  async update(row: AgentServerRow): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE agent_servers SET slug = ?, name = ?, description = ?, url = ?, auth_type = ?, auth_secret = ?, auth_header_names = ?,
         allow_all_workspaces = ?, allowed_workspaces = ?, revision = ?, last_updated_at = ?
       WHERE id = ? AND revision = ?`,
      [row.slug, row.name, row.description, row.url, row.auth_type, row.auth_secret, row.auth_header_names,
        row.allow_all_workspaces, row.allowed_workspaces, row.revision, row.last_updated_at, row.id, row.revision - 1],
    );
    return changes === 1;
  }

  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run('DELETE FROM agent_servers WHERE id = ?', [id]);
    return changes === 1;
  }
}
