/**
 * SSO sessions in the record store, so that every instance of a fleet knows them and a logout
 * anywhere ends them everywhere at once. The cookie holds a random token; only its SHA-256 hash is
 * stored. A session's public id (`session:<id>` as the caller in logs) reveals nothing of the token.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex, timeOrderedId, type Clock, type RecordStore } from '../../../core/index.js';

export interface SessionRow {
  id: string;
  token_hash: string;
  organisation_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

const COLUMNS = 'id, token_hash, organisation_id, user_id, created_at, expires_at';
const TOKEN_BYTES = 32;

export class SessionStore {
  constructor(
    private readonly store: RecordStore,
    private readonly clock: Clock,
  ) {}

  /** A new session for a person; answers the row and the token for the cookie. */
  async create(organisationId: string, userId: string, ttlMs: number): Promise<{ row: SessionRow; token: string }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.clock.now();
    const row: SessionRow = { id: timeOrderedId(), token_hash: sha256Hex(token), organisation_id: organisationId, user_id: userId, created_at: now, expires_at: now + ttlMs };
    await this.store.run(`INSERT INTO sso_sessions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`, [row.id, row.token_hash, row.organisation_id, row.user_id, row.created_at, row.expires_at]);
    return { row, token };
  }

  /** The session of a cookie token, expired or not (the caller decides and ends it). */
  byToken(token: string): Promise<SessionRow | undefined> {
    return this.store.get<SessionRow>(`SELECT ${COLUMNS} FROM sso_sessions WHERE token_hash = ?`, [sha256Hex(token)]);
  }

  async end(id: string): Promise<void> {
    await this.store.run('DELETE FROM sso_sessions WHERE id = ?', [id]);
  }

  async endByToken(token: string): Promise<boolean> {
    return (await this.store.run('DELETE FROM sso_sessions WHERE token_hash = ?', [sha256Hex(token)])).changes > 0;
  }

  /** Forgets sessions past their expiry (run now and then; an expired one is refused anyway). */
  async sweep(): Promise<void> {
    await this.store.run('DELETE FROM sso_sessions WHERE expires_at <= ?', [this.clock.now()]);
  }
}
