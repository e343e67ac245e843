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

const SSO_LOGIN = '/v1/sso/login';

/**
 * Whether this gateway signs people in by SSO: its login route answers a request without an
 * email with a 400 naming `email` (without the identity.sso plugin the route does not exist).
 */
export async function ssoOffered(): Promise<boolean> {
  try {
    const res = await fetch(SSO_LOGIN, { redirect: 'manual', credentials: 'same-origin', cache: 'no-store' });
    return res.status === 400;
  } catch {
    return false;
  }
}

/** Where the browser goes to sign in by SSO; the gateway sends it back to the console. */
export function ssoLoginUrl(email: string): string {
  return `${SSO_LOGIN}?${new URLSearchParams({ email, return_to: '/console/' })}`;
}

/** Ends the SSO session (the gateway clears the cookie). */
export async function endSso(): Promise<void> {
  await fetch('/v1/sso/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
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
