/** How upstream answers become gateway answers: which headers pass (errors: core's providerErrorFromBody). */

/** Upstream headers that describe the connection or the body encoding, not the answer. */
const NOT_FORWARDED = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding',
  'upgrade', 'content-length', 'content-encoding', 'content-type', 'set-cookie', 'date', 'server', 'alt-svc',
  'x-powered-by', 'via', 'strict-transport-security', 'cf-ray', 'cf-cache-status',
]);

/** A fresh header object for one response: the provider's informative headers plus our content-type. */
export function copyResponseHeaders(
  upstream: Record<string, string>, contentType: string, extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in upstream) {
    if (!NOT_FORWARDED.has(name) && !name.startsWith('x-gw-')) headers[name] = upstream[name]!;
  }
  if (extra) Object.assign(headers, extra);
  headers['content-type'] = contentType;
  return headers;
}
