/**
 * The `api_keys` table (owner `auth.api-keys`). Applied steps are never edited: add new ones.
 * Every `*_at` / `*_until` column holds Unix seconds; durations carry their unit in the name.
 * Each step is one portable statement (SQLite and PostgreSQL). Times and durations are BIGINT:
 * PostgreSQL's INTEGER is 32-bit. These steps said INTEGER before PostgreSQL was supported; SQLite
 * gives both names the same 64-bit integer affinity, so a database that applied them is unchanged.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     type TEXT NOT NULL,
     key_hash TEXT NOT NULL UNIQUE,
     organisation_id TEXT,
     workspace_id TEXT,
     scopes TEXT NOT NULL DEFAULT '[]',
     status TEXT NOT NULL DEFAULT 'active',
     created_at BIGINT NOT NULL,
     expires_at BIGINT
   )`,
  // Issue 8: key kinds bound to users, rotation with a transition window, one-time pending secrets.
  'ALTER TABLE api_keys ADD COLUMN user_id TEXT',
  /** Workspace role of a workspace-user key's member (admin, manager, member), kept in step by admin.workspaces. */
  'ALTER TABLE api_keys ADD COLUMN role TEXT',
  'ALTER TABLE api_keys ADD COLUMN updated_at BIGINT',
  'ALTER TABLE api_keys ADD COLUMN last_reset_at BIGINT',
  /** `weekly` or `monthly` */
  'ALTER TABLE api_keys ADD COLUMN rotation_period TEXT',
  'ALTER TABLE api_keys ADD COLUMN rotation_period_days INTEGER',
  'ALTER TABLE api_keys ADD COLUMN next_rotation_at BIGINT',
  'ALTER TABLE api_keys ADD COLUMN key_transition_period_ms BIGINT',
  /** The secret before the last rotation, valid until `previous_valid_until`. */
  'ALTER TABLE api_keys ADD COLUMN previous_key_hash TEXT',
  'ALTER TABLE api_keys ADD COLUMN previous_valid_until BIGINT',
  /** A secret made without a caller to show it to (scheduled rotation, auto-created user key), sealed, until read once. */
  'ALTER TABLE api_keys ADD COLUMN pending_secret TEXT',
  'CREATE INDEX api_keys_previous_key_hash ON api_keys (previous_key_hash)',
  'CREATE INDEX api_keys_next_rotation_at ON api_keys (next_rotation_at)',
  'CREATE INDEX api_keys_workspace_user ON api_keys (workspace_id, user_id)',
  'CREATE INDEX api_keys_organisation ON api_keys (organisation_id, created_at)',
  /** The stored config (id) that routes the key's requests that name none (admin.configs reads it from the principal). */
  'ALTER TABLE api_keys ADD COLUMN default_config_id TEXT',
];
