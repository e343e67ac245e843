/**
 * OAuth2 client-credentials access tokens (RFC 6749 §4.4) for servers that authenticate that way:
 * requested from the server's token endpoint through the shared transport (so the outbound host
 * rules apply), kept until `refreshMarginMs` before they expire, and shared: concurrent callers
 * wait for one request. `forget` drops a server's tokens (its upstream refused one, or it changed).
 * Errors are 502s naming the server; never the secret, the token, nor the endpoint's body.
 */
import { GatewayError, sha256Hex, type Transport } from '../../../core/index.js';
import { FIELD_VALUE } from './auth-rules.js';
import type { McpServer } from './record.js';

export interface TokenOptions {
  /** Request a new token this long before the current one expires (at most half its life). */
  refreshMarginMs: number;
  /** Upper bound of one token request (it is shared, so no single caller's signal may cancel it). */
  exchangeTimeoutMs: number;
  /** Lifetime assumed when the endpoint answers no `expires_in`. */
  defaultTtlMs: number;
}

interface Cached {
  token: string;
  refreshAt: number;
  expiresAt: number;
}

/** Error codes of RFC 6749 §5.2: safe to repeat (anything else of the body is not). */
const OAUTH_ERRORS: ReadonlySet<string> = new Set([
  'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope',
]);
const MAX_ANSWER_BYTES = 64 * 1024;

export function tokenFailed(server: McpServer, why: string): GatewayError {
  return new GatewayError({ status: 502, message: `MCP server "${server.slug}": OAuth2 token request failed: ${why}`, code: 'mcp_upstream_auth_failed' });
}

export class ClientCredentialTokens {
  /** server id → (revision and secret digest) → token. */
  readonly #cache = new Map<string, Map<string, Cached>>();
  readonly #inflight = new Map<string, Promise<Cached>>();
  /** Bumped by `forget`, so that a request already under way does not bring a dropped token back. */
  readonly #generation = new Map<string, number>();
  /** Token requests sent (tests count them). */
  requests = 0;

  constructor(private readonly transport: Transport, private readonly options: TokenOptions) {}

  async token(server: McpServer, clientSecret: string, signal: AbortSignal): Promise<string> {
    const key = `${server.revision}\n${sha256Hex(clientSecret)}`;
    const cached = this.#cache.get(server.id)?.get(key);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    const flightKey = `${server.id}\n${key}`;
    let pending = this.#inflight.get(flightKey);
    if (!pending) {
      const generation = this.#generation.get(server.id) ?? 0;
      pending = this.#request(server, clientSecret).finally(() => this.#inflight.delete(flightKey));
      pending.then((fresh) => {
        if ((this.#generation.get(server.id) ?? 0) !== generation) return;
        // One token per server: an older revision's or secret's token is of no further use.
        this.#cache.set(server.id, new Map([[key, fresh]]));
      }, () => undefined);
      this.#inflight.set(flightKey, pending);
    }
    try {
      return (await untilAborted(pending, signal)).token;
    } catch (e) {
      // A failed refresh inside the margin: the old token is still good for a while.
      if (cached && !signal.aborted && Date.now() < cached.expiresAt) return cached.token;
      throw e;
    }
  }

  forget(serverId: string): void {
    this.#cache.delete(serverId);
    this.#generation.set(serverId, (this.#generation.get(serverId) ?? 0) + 1);
    for (const key of this.#inflight.keys()) if (key.startsWith(`${serverId}\n`)) this.#inflight.delete(key);
  }

  async #request(server: McpServer, clientSecret: string): Promise<Cached> {
    this.requests++;
    const auth = server.auth;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scope !== undefined) form.set('scope', auth.scope);
    if (auth.audience !== undefined) form.set('audience', auth.audience);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (auth.token_endpoint_auth_method === 'client_secret_post') {
      form.set('client_id', auth.client_id!);
      form.set('client_secret', clientSecret);
    } else {
      // RFC 6749 §2.3.1: each part form-encoded, then joined and base64-encoded.
      const pair = `${formEncode(auth.client_id!)}:${formEncode(clientSecret)}`;
      headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    let status: number;
    let text: string;
    try {
      const reply = await this.transport.send(
        { url: auth.token_url!, method: 'POST', headers, body: form.toString() },
        AbortSignal.timeout(this.options.exchangeTimeoutMs),
      );
      status = reply.status;
      text = await boundedText(reply.body, reply.dump.bind(reply));
    } catch (e) {
      if (e instanceof GatewayError) throw tokenFailed(server, e.message);
      const timedOut = (e as Error)?.name === 'TimeoutError';
      throw tokenFailed(server, timedOut ? `no answer within ${this.options.exchangeTimeoutMs} ms` : 'the token endpoint is unreachable');
    }
    const answer = parseObject(text);
    if (status !== 200) {
      const code = typeof answer?.['error'] === 'string' && OAUTH_ERRORS.has(answer['error']) ? ` (${answer['error']})` : '';
      throw tokenFailed(server, `the token endpoint answered ${status}${code}`);
    }
    if (!answer) throw tokenFailed(server, 'the token endpoint answered something that is not a JSON object');
    const token = answer['access_token'];
    if (typeof token !== 'string' || token === '' || !FIELD_VALUE.test(token)) throw tokenFailed(server, 'the token endpoint answered no usable access_token');
    const type = answer['token_type'];
    if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
      throw tokenFailed(server, 'the token endpoint answered a token_type other than Bearer');
    }
    const lifetimeMs = expiresInMs(answer['expires_in']) ?? this.options.defaultTtlMs;
    const margin = Math.min(this.options.refreshMarginMs, lifetimeMs / 2);
    const now = Date.now();
    return { token, refreshAt: now + lifetimeMs - margin, expiresAt: now + lifetimeMs };
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** `expires_in` in seconds, as a number or a numeric string (some servers send one). */
function expiresInMs(value: unknown): number | undefined {
  const seconds = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

/** The answer as text, at most MAX_ANSWER_BYTES of it (a token answer is small; a huge one is not one). */
async function boundedText(body: AsyncIterable<Uint8Array>, dump: () => Promise<void>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await dump().catch(() => undefined);
      return '';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error) => { signal.removeEventListener('abort', onAbort); reject(error); },
    );
  });
}
