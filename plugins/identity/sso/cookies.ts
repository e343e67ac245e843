/**
 * The cookies of SSO: `gw_session` (the session, every path) and `gw_sso_login` (binds a login to
 * the browser that started it, only sent to the callback). Both HttpOnly and SameSite=Lax (sent on
 * the provider's top-level redirect back, not on cross-site subrequests); Secure when the request
 * came over TLS or through a proxy that says `x-forwarded-proto: https`.
 */
import type { GatewayRequest } from '../../../core/index.js';

export const SESSION_COOKIE = 'gw_session';
export const LOGIN_COOKIE = 'gw_sso_login';
export const CALLBACK_PATH = '/v1/sso/callback';

/** The value of cookie `name` in the request, if any. */
export function readCookie(request: GatewayRequest, name: string): string | undefined {
  const header = request.headers['cookie'];
  if (!header) return undefined;
  for (const part of header.split(/;\s*|,\s*(?=[^;,=\s]+=)/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Whether the client reached us over TLS, itself or through a proxy in front. */
export function overTls(request: GatewayRequest): boolean {
  if (request.secure === true) return true;
  const proto = request.headers['x-forwarded-proto'];
  return proto !== undefined && proto.split(',')[0]!.trim().toLowerCase() === 'https';
}

export interface CookieOptions {
  path: string;
  maxAgeSeconds: number;
  secure: boolean;
}

/** A Set-Cookie value; a max age of 0 removes the cookie. */
export function cookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
