/**
 * Key sets fetched from a JWKS URL and kept per URL for `cacheMaxAge` seconds. An unknown `kid`
 * (a rotated key) triggers one early refetch, at most every MIN_REFETCH_MS, so a client sending
 * random key ids cannot make the gateway hammer the key server. Concurrent fetches are shared.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Transport } from '../../core/index.js';

const MIN_REFETCH_MS = 10_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_JWKS_BYTES = 512 * 1024;

interface KeySet {
  byKid: Map<string, KeyObject>;
  /** Keys without a `kid`, tried in order when a token names none. */
  anonymous: KeyObject[];
  fetchedAt: number;
}

export class JwksCache {
  readonly #sets = new Map<string, KeySet>();
  readonly #pending = new Map<string, Promise<KeySet>>();

  constructor(private readonly transport: Transport, private readonly now: () => number = Date.now) {}

  /** Candidate keys for a token's `kid` (all anonymous keys when it has none). Throws when the set cannot be fetched. */
  async keysFor(uri: string, kid: string | undefined, maxAgeSeconds: number): Promise<KeyObject[]> {
    let set = this.#sets.get(uri);
    if (!set || this.now() - set.fetchedAt > maxAgeSeconds * 1000) set = await this.#fetch(uri);
    let keys = pick(set, kid);
    if (keys.length === 0 && this.now() - set.fetchedAt >= MIN_REFETCH_MS) keys = pick(await this.#fetch(uri), kid);
    return keys;
  }

  #fetch(uri: string): Promise<KeySet> {
    let pending = this.#pending.get(uri);
    if (!pending) {
      pending = this.#load(uri).finally(() => this.#pending.delete(uri));
      this.#pending.set(uri, pending);
    }
    return pending;
  }

  async #load(uri: string): Promise<KeySet> {
    const reply = await this.transport.send({ url: uri, method: 'GET', headers: { accept: 'application/json' } }, AbortSignal.timeout(FETCH_TIMEOUT_MS));
    if (reply.status !== 200) {
      await reply.dump().catch(() => undefined);
      throw new Error(`JWKS ${uri} answered HTTP ${reply.status}`);
    }
    if (Number(reply.headers['content-length']) > MAX_JWKS_BYTES) {
      await reply.dump().catch(() => undefined);
      throw new Error(`JWKS ${uri} is larger than ${MAX_JWKS_BYTES} bytes`);
    }
    const body = JSON.parse(await reply.text()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error(`JWKS ${uri} has no "keys" array`);
    const set: KeySet = { byKid: new Map(), anonymous: [], fetchedAt: this.now() };
    for (const jwk of body.keys as (JsonWebKey & { kid?: unknown; use?: unknown })[]) {
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      let key: KeyObject;
      try {
        key = createPublicKey({ key: jwk, format: 'jwk' });
      } catch {
        continue; // a key we cannot use (symmetric, unknown curve) is skipped, not fatal
      }
      if (typeof jwk.kid === 'string') set.byKid.set(jwk.kid, key);
      else set.anonymous.push(key);
    }
    this.#sets.set(uri, set);
    return set;
  }
}

function pick(set: KeySet, kid: string | undefined): KeyObject[] {
  if (kid === undefined) return set.anonymous.length > 0 ? set.anonymous : [...set.byKid.values()];
  const key = set.byKid.get(kid);
  return key ? [key] : [];
}
