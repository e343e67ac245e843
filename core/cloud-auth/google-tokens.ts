/**
 * Access tokens for Google service accounts: minted once (signed JWT → token_uri), cached per
 * service account until `refreshMarginMs` before expiry, and shared: concurrent first requests wait
 * for one exchange. The cache key includes the private key itself, so a caller who only knows an
 * account's e-mail never rides on a token minted with someone else's key. The exchange goes through
 * the caller's transport (the shared one: outbound host rules apply to token_uri).
 */
import { Errors, GatewayError } from '../errors.js';
import type { Transport } from '../types.js';
import { assertionClaims, DEFAULT_TOKEN_URI, signAssertion, type ServiceAccount } from './google-service-account.js';

export interface TokenCacheOptions {
  /** Who exchanges (a provider id such as `vertex-ai`): named in errors and set as their `provider`. */
  owner: string;
  /** Where the caller's config keeps the private key, named when it is unusable. */
  privateKeyPath: string;
  /** Re-exchange this long before the token expires. */
  refreshMarginMs: number;
  /** Distinct service accounts kept; the oldest entry is dropped beyond it. */
  maxEntries: number;
  /** Upper bound of one exchange (it is shared, so no single request's signal may cancel it). */
  exchangeTimeoutMs: number;
}

interface Cached {
  token: string;
  /** Date.now() after which the token is exchanged again. */
  refreshAt: number;
  /** Date.now() at which the provider stops accepting it. */
  expiresAt: number;
}

const GRANT_TYPE = encodeURIComponent('urn:ietf:params:oauth:grant-type:jwt-bearer');
const FORM_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/x-www-form-urlencoded' });

export class ServiceAccountTokens {
  readonly #cache = new Map<string, Cached>();
  readonly #inflight = new Map<string, Promise<Cached>>();
  readonly #keys = new WeakMap<ServiceAccount, string>();
  /** How many exchanges were started (for tests and metrics). */
  exchanges = 0;

  constructor(private readonly transport: Transport, private readonly options: TokenCacheOptions) {}

  /** A valid access token; `signal` only stops this caller from waiting, never the shared exchange. */
  async token(sa: ServiceAccount, signal: AbortSignal): Promise<string> {
    const key = this.#keyOf(sa);
    const cached = this.#cache.get(key);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    let pending = this.#inflight.get(key);
    if (!pending) {
      pending = this.#exchange(sa).finally(() => this.#inflight.delete(key));
      pending.then((fresh) => this.#remember(key, fresh), () => undefined);
      this.#inflight.set(key, pending);
    }
    try {
      return (await untilAborted(pending, signal)).token;
    } catch (e) {
      // A failed refresh inside the margin: the old token is still good for a while.
      if (cached && !signal.aborted && Date.now() < cached.expiresAt) return cached.token;
      throw e;
    }
  }

  /** Parsed configs are cached and frozen upstream, so the same key object comes back: build its key once. */
  #keyOf(sa: ServiceAccount): string {
    let key = this.#keys.get(sa);
    if (key === undefined) {
      key = `${sa.client_email}\n${sa.token_uri ?? ''}\n${sa.private_key}`;
      this.#keys.set(sa, key);
    }
    return key;
  }

  #remember(key: string, fresh: Cached): void {
    this.#cache.delete(key);
    if (this.#cache.size >= this.options.maxEntries) {
      const oldest = this.#cache.keys().next();
      if (!oldest.done) this.#cache.delete(oldest.value);
    }
    if (this.options.maxEntries > 0) this.#cache.set(key, fresh);
  }

  async #exchange(sa: ServiceAccount): Promise<Cached> {
    this.exchanges++;
    const tokenUri = sa.token_uri ?? DEFAULT_TOKEN_URI;
    const assertion = signAssertion(sa, assertionClaims(sa, tokenUri, Math.floor(Date.now() / 1000)), this.options.privateKeyPath);
    const body = `grant_type=${GRANT_TYPE}&assertion=${assertion}`;
    let status: number;
    let text: string;
    try {
      const reply = await this.transport.send(
        { url: tokenUri, method: 'POST', headers: { ...FORM_HEADERS }, body },
        AbortSignal.timeout(this.options.exchangeTimeoutMs),
      );
      status = reply.status;
      text = await reply.text();
    } catch (e) {
      if (e instanceof GatewayError) throw e;
      const why = (e as Error)?.name === 'TimeoutError' ? `no answer within ${this.options.exchangeTimeoutMs} ms` : 'token endpoint unreachable';
      throw Errors.badGateway(`${this.options.owner}: service-account token exchange failed: ${why}`, this.options.owner);
    }
    const parsed = parseJson(text);
    if (status !== 200) throw exchangeRefused(this.options.owner, status, parsed);
    const token = parsed?.['access_token'];
    if (typeof token !== 'string' || token === '') {
      throw Errors.badGateway(`${this.options.owner}: token endpoint answered without an access_token`, this.options.owner);
    }
    const expiresIn = typeof parsed!['expires_in'] === 'number' ? (parsed!['expires_in'] as number) * 1000 : 3_600_000;
    // A short-lived token is still used for at least half its life.
    const margin = Math.min(this.options.refreshMarginMs, expiresIn / 2);
    const now = Date.now();
    return { token, refreshAt: now + expiresIn - margin, expiresAt: now + expiresIn };
  }
}

/** The token endpoint's own verdict: a rejected credential is the caller's 401, anything else a 502. */
function exchangeRefused(owner: string, status: number, body: Record<string, unknown> | undefined): GatewayError {
  const code = typeof body?.['error'] === 'string' ? (body['error'] as string) : undefined;
  const description = typeof body?.['error_description'] === 'string' ? `: ${body['error_description'] as string}` : '';
  const message = `${owner}: service-account token exchange failed (${status}${code ? ` ${code}` : ''}${description})`;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return Errors.upstream(401, message, owner, 'authentication_error', 'token_exchange_failed');
  }
  return Errors.badGateway(message, owner);
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
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
