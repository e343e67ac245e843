/**
 * Tables of identity.jwt (owner `identity.jwt`), portable SQL for SQLite and PostgreSQL. Applied
 * steps are never edited: add new ones. One row per organisation that accepts JWT callers; the
 * settings are a JSON object (settings.ts), times ISO 8601 strings.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE jwt_identity_settings (
     organisation_id TEXT PRIMARY KEY,
     issuer TEXT NOT NULL,
     settings TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_updated_at TEXT NOT NULL
   )`,
  'CREATE INDEX jwt_identity_settings_issuer ON jwt_identity_settings (issuer)',
];
