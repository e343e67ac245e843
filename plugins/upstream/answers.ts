/** How upstream answers become gateway answers: which headers pass, how errors read. */
import { Errors, type GatewayError } from '../../core/index.js';

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

const decoder = new TextDecoder();

/** Reads an OpenAI-style error envelope; anything else becomes a message quoting the start of the body. */
export function defaultProviderError(status: number, body: Uint8Array, provider: string): GatewayError {
  const text = decoder.decode(body);
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const err = parsed.error;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      return Errors.upstream(
        status,
        typeof e['message'] === 'string' ? e['message'] : `provider ${provider} answered ${status}`,
        provider,
        typeof e['type'] === 'string' ? e['type'] : undefined,
        typeof e['code'] === 'string' ? e['code'] : e['code'] == null ? null : String(e['code']),
        typeof e['param'] === 'string' ? e['param'] : null,
      );
    }
    if (typeof err === 'string') return Errors.upstream(status, err, provider);
    if (typeof parsed.message === 'string') return Errors.upstream(status, parsed.message, provider);
  } catch {
    /* not JSON: fall through */
  }
  const excerpt = text.trim().slice(0, 200);
  return Errors.upstream(status, `provider ${provider} answered ${status}${excerpt ? `: ${excerpt}` : ''}`, provider);
}
