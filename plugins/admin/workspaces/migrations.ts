/**
 * Tables of admin.workspaces (owner `admin.workspaces`). Applied steps are never edited: add new ones.
 * Times are ISO 8601 strings (what the routes answer); settings are JSON objects of known keys.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE organisations (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     settings TEXT NOT NULL DEFAULT '{}',
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL
   )`,
  `CREATE TABLE workspaces (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     slug TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT,
     status TEXT NOT NULL DEFAULT 'active',
     is_default INTEGER NOT NULL DEFAULT 0,
     settings TEXT NOT NULL DEFAULT '{}',
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     archived_at TEXT,
     UNIQUE (organisation_id, slug)
   )`,
  `CREATE TABLE users (
     id TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     email TEXT NOT NULL,
     name TEXT,
     role TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     UNIQUE (organisation_id, email)
   )`,
  `CREATE TABLE workspace_members (
     workspace_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     role TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL,
     PRIMARY KEY (workspace_id, user_id)
   )`,
  'CREATE INDEX workspace_members_user ON workspace_members (user_id)',
  // 1, or 0 while deactivated (SCIM active: false): such a person neither signs in nor calls with a JWT.
  'ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1',
  // The stored config (admin.configs, by id) that routes requests of the workspace's keys that name none.
  'ALTER TABLE workspaces ADD COLUMN default_config_id TEXT',
];
