/**
 * The provider URL for a proxied path: `{base}/{rest}?{query}`. The rest must stay below the base:
 * every segment is checked as the provider's URL parser would read it, so no `..` (plain or
 * percent-encoded), no encoded slash or backslash, no empty segment (`//host` would read as an
 * authority) and nothing that is not printable ASCII can move the request elsewhere. A base that
 * is not a URL is the config's fault (400 on custom_host).
 */
import { Errors, type ProxyBase } from '../../../core/index.js';

/** Printable ASCII without space, `\`, `?` and `#` (the query is passed separately). */
const SEGMENT = /^[\x21-\x7e]+$/;
const NOT_IN_SEGMENT = /[\\?#]/;

/** Why `rest` (the path below `/v1/`, undecoded) may not be proxied, or undefined when it may. */
export function pathProblem(rest: string): string | undefined {
  if (rest === '') return 'names no path below /v1/';
  for (const segment of rest.split('/')) {
    if (segment === '') return 'has an empty segment (//)';
    if (!SEGMENT.test(segment) || NOT_IN_SEGMENT.test(segment)) return 'has a character that is not allowed in a proxied path';
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'has a malformed percent-encoding';
    }
    if (decoded === '.' || decoded === '..') return 'has a "." or ".." segment';
    if (decoded.includes('/') || decoded.includes('\\')) return 'has an encoded slash or backslash';
    if (/[\x00-\x1f\x7f]/.test(decoded)) return 'has an encoded control character';
  }
  return undefined;
}

/** The upstream URL, or a 400 naming the path's problem; the client's query wins over the base's defaults. */
export function proxiedUrl(base: ProxyBase, rest: string, query: URLSearchParams): string {
  const problem = pathProblem(rest);
  if (problem) throw Errors.invalidRequest(`path /v1/${rest.length > 200 ? rest.slice(0, 200) + '...' : rest} ${problem}`, 'path', 'invalid_path');
  let root: URL;
  try {
    root = new URL(base.url);
  } catch {
    throw Errors.invalidConfig('custom_host', 'is not a URL the proxy can append a path to');
  }
  const params = new URLSearchParams(query);
  for (const [name, value] of Object.entries(base.defaultQuery ?? {})) if (!params.has(name)) params.set(name, value);
  const search = params.size > 0 ? `?${params.toString()}` : '';
  const prefix = base.url.replace(/\/+$/, '');
  const url = new URL(`${prefix}/${rest}${search}`);
  // Belt and braces: whatever the parser made of it, it is the base's origin and below its path.
  const rootPath = root.pathname.replace(/\/+$/, '');
  if (url.origin !== root.origin || !url.pathname.startsWith(`${rootPath}/`)) {
    throw Errors.invalidRequest(`path /v1/${rest} leaves the provider's base URL`, 'path', 'invalid_path');
  }
  return url.href;
}
