/**
 * The `mcp_servers` table. Portable SQL (SQLite and PostgreSQL): TEXT/INTEGER columns, JSON kept
 * as TEXT, `?` placeholders. Upstream secrets live sealed in `credentials`, the masks shown instead
 * of them in `masks`, so that answers never need the secret key.
 */
import { RecordTable, type RecordStore } from '../../../core/index.js';
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

const COLUMNS: readonly (keyof McpServerRow & string)[] = [
  'id', 'organisation_id', 'workspace_id', 'slug', 'name', 'description', 'url', 'auth', 'credentials',
  'masks', 'allow_all_workspaces', 'allowed_workspaces', 'allowed_tools', 'denied_tools', 'secret_mappings',
  'revision', 'created_at', 'last_updated_at',
];

export class McpServerRepo extends RecordTable<McpServerRow> {
  constructor(store: RecordStore) {
    super(store, 'mcp_servers', COLUMNS);
  }

  init(): Promise<void> {
    return this.store.migrate('agents.mcp-servers', MIGRATIONS);
  }

  async all(): Promise<McpServer[]> {
    return (await this.rows()).map(fromRow);
  }
}
