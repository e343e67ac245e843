/**
 * The console's response headers. The policy allows nothing but the gateway's own origin: the
 * bundle has no inline script or style and fetches only the gateway's routes, so it works
 * air-gapped and an injected script or a framing page gets nowhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The page is checked again on every load (a new build names new assets); assets never change under their name. */
export const PAGE_CACHING = 'no-cache';
export const ASSET_CACHING = 'public, max-age=31536000, immutable';

export function consoleHeaders(type: string, caching: string): Record<string, string> {
  return { ...SECURITY_HEADERS, 'content-type': type, 'cache-control': caching, vary: 'accept-encoding' };
}
