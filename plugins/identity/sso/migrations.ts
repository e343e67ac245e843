/**
 * Tables of identity.sso (owner `identity.sso`). Applied steps are never edited: add new ones.
 * Each step is one portable statement (SQLite and PostgreSQL); times are Unix milliseconds in BIGINT
 * (PostgreSQL's INTEGER is 32-bit). Secrets are never stored in the clear: the client secret and
 * the PKCE verifier are sealed with the secret box, cookies are stored as SHA-256 hashes.
 */
export const MIGRATIONS: readonly string[] = [
  /** One OpenID provider per organisation. */
  `CREATE TABLE sso_providers (
     organisation_id TEXT PRIMARY KEY,
     issuer TEXT NOT NULL,
     client_id TEXT NOT NULL,
     client_secret TEXT,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL
   )`,
  /** Email domains: each belongs to one organisation. */
  `CREATE TABLE sso_domains (
     domain TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     allow_subdomains INTEGER NOT NULL DEFAULT 0,
     created_at BIGINT NOT NULL
   )`,
  'CREATE INDEX sso_domains_organisation ON sso_domains (organisation_id)',
  /** Logins on their way through the provider, finished by whichever instance gets the callback. */
  `CREATE TABLE sso_logins (
     state TEXT PRIMARY KEY,
     organisation_id TEXT NOT NULL,
     browser_hash TEXT NOT NULL,
     nonce TEXT NOT NULL,
     code_verifier TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     return_to TEXT,
     expires_at BIGINT NOT NULL
   )`,
  'CREATE INDEX sso_logins_expires ON sso_logins (expires_at)',
  `CREATE TABLE sso_sessions (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL UNIQUE,
     organisation_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
  'CREATE INDEX sso_sessions_expires ON sso_sessions (expires_at)',
  'CREATE INDEX sso_sessions_user ON sso_sessions (user_id)',
];
