/**
 * Gateway API keys, stored as SHA-256 hashes (a key is a random 256-bit secret, so a fast hash is
 * enough; lookup is by hash, so no secret comparison leaks timing). Verified keys are cached in
 * memory so that steady-state requests never reach the store; unknown keys are cached briefly
 * (bounded) so a flood of bad keys cannot hammer it either.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Principal, RecordStore } from '../../core/index.js';

export const MIGRATIONS = [
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     type TEXT NOT NULL,
     key_hash TEXT NOT NULL UNIQUE,
     organisation_id TEXT,
     workspace_id TEXT,
     scopes TEXT NOT NULL DEFAULT '[]',
     status TEXT NOT NULL DEFAULT 'active',
     created_at INTEGER NOT NULL,
     expires_at INTEGER
   )`,
];

interface KeyRow {
  id: string;
  type: string;
  organisation_id: string | null;
  workspace_id: string | null;
  scopes: string;
  status: string;
  expires_at: number | null;
}

interface CacheEntry {
  principal: Principal | null;
  expiresAtMs: number;
  /** When the key itself stops being valid (ms), independent of the cache TTL. */
  validUntilMs: number;
}

export interface KeyCacheOptions {
  ttlMs: number;
  negativeTtlMs: number;
  maxEntries: number;
}

export function hashKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateSecret(prefix = 'gw-'): string {
  return prefix + randomBytes(32).toString('base64url');
}

export class ApiKeyStore {
  readonly #cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: RecordStore,
    private readonly options: KeyCacheOptions,
  ) {}

  async init(): Promise<void> {
    await this.store.migrate('auth.api-keys', MIGRATIONS);
  }

  async count(): Promise<number> {
    const row = await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys');
    return row?.n ?? 0;
  }

  /** Stores a new organisation-owner key with the given secret. */
  async insertOwnerKey(secret: string, name: string): Promise<string> {
    const id = randomUUID();
    await this.store.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, name, 'organisation-owner', hashKey(secret), 'default', '["*"]', Math.floor(Date.now() / 1000)],
    );
    return id;
  }

  /** The principal for a secret, or null when the key is unknown, revoked or expired. */
  async verify(secret: string): Promise<Principal | null> {
    const hash = hashKey(secret);
    const now = Date.now();
    const cached = this.#cache.get(hash);
    if (cached && cached.expiresAtMs > now && cached.validUntilMs > now) return cached.principal;
    const row = await this.store.get<KeyRow>(
      'SELECT id, type, organisation_id, workspace_id, scopes, status, expires_at FROM api_keys WHERE key_hash = ?',
      [hash],
    );
    const validUntilMs = row?.expires_at ? row.expires_at * 1000 : Number.POSITIVE_INFINITY;
    const principal = row && row.status === 'active' && validUntilMs > now ? toPrincipal(row) : null;
    this.#remember(hash, {
      principal,
      expiresAtMs: now + (principal ? this.options.ttlMs : this.options.negativeTtlMs),
      validUntilMs,
    });
    return principal;
  }

  /** Drops cached verdicts (after a key changes). */
  invalidate(): void {
    this.#cache.clear();
  }

  #remember(hash: string, entry: CacheEntry): void {
    if (this.#cache.size >= this.options.maxEntries) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(hash, entry);
  }
}

function toPrincipal(row: KeyRow): Principal {
  return Object.freeze({
    keyId: row.id,
    type: row.type,
    organisationId: row.organisation_id ?? undefined,
    workspaceId: row.workspace_id ?? undefined,
    scopes: Object.freeze(JSON.parse(row.scopes) as string[]),
  });
}
