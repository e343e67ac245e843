/**
 * Who is signed in. A gateway API key is kept for this tab only (sessionStorage: gone when the tab
 * closes, never in a URL or a cookie); an SSO session is the gateway's own `gw_session` cookie,
 * which the browser sends by itself.
 */
const KEY_ITEM = 'gw.console.key';

export type SignIn = { kind: 'api_key'; key: string } | { kind: 'sso' };

export function storedSignIn(): SignIn | undefined {
  const key = sessionStorage.getItem(KEY_ITEM);
  return key ? { kind: 'api_key', key } : undefined;
}

export function keepKey(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
}

/** What GET /v1/console/me answers: the caller as the gateway sees them. */
export interface Me {
  object: 'console_session';
  sign_in: 'api_key' | 'sso';
  key_id: string;
  type: string;
  role?: string;
  organisation_id?: string;
  workspace_id?: string;
  user_id?: string;
  scopes: string[];
}

/** Whether the caller's rights include `scope` (`*` and `area.*` grant all of an area). */
export function can(me: Me, scope: string): boolean {
  const area = scope.split('.')[0];
  return me.scopes.some((s) => s === scope || s === '*' || s === `${area}.*`);
}
