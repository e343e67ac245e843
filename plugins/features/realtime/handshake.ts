/**
 * What a browser puts where a server would put headers. Browsers cannot set headers on a WebSocket
 * handshake, so OpenAI's clients send the key as a subprotocol, `openai-insecure-api-key.<key>`,
 * next to `realtime` (and `openai-beta.realtime-v1` for the beta protocol). Here that slot carries
 * the gateway key: it becomes `x-gw-api-key` for the usual key check, and is taken off the offered
 * protocols so that nothing passes it on. `x-gw-config` and `x-gw-provider` may come as query
 * parameters of the same names (never a key: URLs end up in access logs).
 */
import type { HeaderMap } from '../../../core/index.js';

export const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';
/** Query parameters read as the headers of the same name when those are absent; never sent upstream. */
export const QUERY_HEADERS = ['x-gw-config', 'x-gw-provider'] as const;

/** The offered subprotocols, in order (the `sec-websocket-protocol` header is a comma list). */
export function offeredProtocols(headers: HeaderMap): string[] {
  const raw = headers['sec-websocket-protocol'];
  if (!raw) return [];
  return raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Moves the gateway key of the key subprotocol into `x-gw-api-key` (unless that header is set) and
 * rewrites the offered protocols without it; copies the query's gateway parameters into headers.
 */
export function adoptBrowserCredentials(headers: HeaderMap, query: URLSearchParams): void {
  const offered = offeredProtocols(headers);
  const keyProtocol = offered.find((p) => p.startsWith(KEY_PROTOCOL_PREFIX));
  if (keyProtocol !== undefined) {
    const key = keyProtocol.slice(KEY_PROTOCOL_PREFIX.length);
    if (headers['x-gw-api-key'] === undefined && key !== '') headers['x-gw-api-key'] = key;
    const rest = offered.filter((p) => !p.startsWith(KEY_PROTOCOL_PREFIX));
    if (rest.length > 0) headers['sec-websocket-protocol'] = rest.join(', ');
    else delete headers['sec-websocket-protocol'];
  }
  for (const name of QUERY_HEADERS) {
    const value = query.get(name);
    if (value !== null && headers[name] === undefined) headers[name] = value;
  }
}

/** The protocol to answer the client with: `realtime` when offered, else the first one, else none. */
export function chosenProtocol(offered: ReadonlySet<string>): string | false {
  if (offered.has('realtime')) return 'realtime';
  for (const protocol of offered) if (!protocol.startsWith(KEY_PROTOCOL_PREFIX)) return protocol;
  return false;
}
