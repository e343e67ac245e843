/**
 * The `agent_servers` table, on either record store (portable SQL: TEXT/INTEGER columns, JSON as
 * TEXT, `?` placeholders). The auth secret lives sealed in `auth_secret`.
 */
import { RecordTable, type RecordStore } from '../../../core/index.js';
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

const COLUMNS: readonly (keyof AgentServerRow & string)[] = [
  'id', 'organisation_id', 'slug', 'name', 'description', 'url', 'auth_type', 'auth_secret',
  'auth_header_names', 'workspace_id', 'allow_all_workspaces', 'allowed_workspaces', 'revision',
  'created_at', 'last_updated_at',
];

export class AgentServerRepo extends RecordTable<AgentServerRow> {
  constructor(store: RecordStore) {
    super(store, 'agent_servers', COLUMNS);
  }

  init(): Promise<void> {
    return this.store.migrate('agents.agent-servers', MIGRATIONS);
  }

  async all(): Promise<AgentServer[]> {
    return (await this.rows()).map(fromRow);
  }
}
