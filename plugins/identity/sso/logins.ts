/**
 * Logins in flight, between `/v1/sso/login` and `/v1/sso/callback`, in the record store: any
 * instance of a fleet can finish a login another one began. Each is used once and lives ten
 * minutes. The PKCE verifier is sealed with the secret box (bound to its state); the browser that
 * began the login holds a random value whose hash is kept here, so a callback URL replayed in
 * another browser (login CSRF) finds no login.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex, type Clock, type RecordStore, type SecretBox } from '../../../core/index.js';

export const LOGIN_TTL_MS = 10 * 60 * 1000;

export interface PendingLogin {
  state: string;
  organisationId: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  returnTo: string | null;
}

interface LoginRow {
  state: string;
  organisation_id: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string | null;
  expires_at: number;
}

export class LoginStates {
  constructor(
    private readonly store: RecordStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Keeps a login; answers the value of the browser-binding cookie. */
  async begin(login: PendingLogin): Promise<string> {
    const browser = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    await this.store.run('DELETE FROM sso_logins WHERE expires_at <= ?', [now]);
    await this.store.run(
      'INSERT INTO sso_logins (state, organisation_id, browser_hash, nonce, code_verifier, redirect_uri, return_to, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [login.state, login.organisationId, sha256Hex(browser), login.nonce, this.box.encrypt(login.codeVerifier, login.state), login.redirectUri, login.returnTo, now + LOGIN_TTL_MS],
    );
    return browser;
  }

  /**
   * Takes the login of `state` (gone afterwards, whatever the outcome): undefined when unknown,
   * used, expired, or begun in another browser.
   */
  async take(state: string, browser: string | undefined): Promise<PendingLogin | undefined> {
    const row = await this.store.get<LoginRow>(
      'SELECT state, organisation_id, browser_hash, nonce, code_verifier, redirect_uri, return_to, expires_at FROM sso_logins WHERE state = ?',
      [state],
    );
    if (!row) return undefined;
    // Only the request that deletes the row may use it: two callbacks with one state get one session.
    const { changes } = await this.store.run('DELETE FROM sso_logins WHERE state = ?', [state]);
    if (changes === 0 || row.expires_at <= this.clock.now()) return undefined;
    if (browser === undefined || sha256Hex(browser) !== row.browser_hash) return undefined;
    return {
      state: row.state,
      organisationId: row.organisation_id,
      nonce: row.nonce,
      codeVerifier: this.box.decrypt(row.code_verifier, row.state),
      redirectUri: row.redirect_uri,
      returnTo: row.return_to,
    };
  }
}
