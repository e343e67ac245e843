/**
 * Which headers cross the proxy. Towards the provider: the client's, without the hop-by-hop ones,
 * without anything that carries a gateway or provider credential (the target's own replace them),
 * without the gateway's `x-gw-*` and forwarding headers; then the base's. Back to the client: the
 * provider's, without hop-by-hop headers, cookies and `x-gw-*` (the body passes unchanged, so its
 * length and encoding stay true).
 */
import type { HeaderMap, ProxyBase } from '../../../core/index.js';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

const NOT_SENT = new Set([
  ...HOP_BY_HOP, 'host', 'expect', 'cookie', 'authorization', 'x-api-key', 'api-key', 'x-goog-api-key',
  'forwarded', 'x-real-ip', 'via',
]);

const NOT_RETURNED = new Set([...HOP_BY_HOP, 'set-cookie', 'set-cookie2', 'date', 'server', 'alt-svc', 'strict-transport-security', 'x-powered-by']);

/** Names a `Connection` header lists are hop-by-hop too. */
function connectionTokens(value: string | undefined): Set<string> {
  return new Set((value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
}

export function upstreamHeaders(client: HeaderMap, base: ProxyBase): Record<string, string> {
  const listed = connectionTokens(client['connection']);
  const out: Record<string, string> = {};
  for (const name in client) {
    const value = client[name];
    if (value === undefined || NOT_SENT.has(name) || listed.has(name) || name.startsWith('x-gw-') || name.startsWith('x-forwarded-')) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(base.defaultHeaders ?? {})) out[name] ??= value;
  Object.assign(out, base.headers);
  return out;
}

export function answerHeaders(upstream: Readonly<Record<string, string>>): Record<string, string> {
  const listed = connectionTokens(upstream['connection']);
  const out: Record<string, string> = {};
  for (const name in upstream) {
    if (NOT_RETURNED.has(name) || listed.has(name) || name.startsWith('x-gw-')) continue;
    out[name] = upstream[name]!;
  }
  return out;
}
