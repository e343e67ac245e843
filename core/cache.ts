/**
 * The response-cache contracts. Entries are opaque bytes with a time to live; the cache plugin
 * (cache.core) decides what goes in and asks the mode named by `cache.mode` (`simple`, `semantic`
 * ...) to find and write them. Process memory by default; Redis for several instances.
 * A store that fails answers as a miss (and says so in its logs): a cache never fails a request.
 */
import type { Attempt } from './types.js';

export interface CacheStore {
  readonly kind: string;
  /** The entry, or undefined (absent, expired, or the store failed). Callers must not mutate it. */
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Values of the `x-gw-cache-status` response header (INTERFACE.md). */
export type CacheStatus = 'HIT' | 'SEMANTIC HIT' | 'MISS' | 'REFRESH' | 'DISABLED';

/** One cacheable try of one target, prepared once by cache.core for the mode. */
export interface CacheRequest {
  /**
   * The exact key: sha256 (hex) over the canonical JSON of the endpoint id, the provider identity,
   * the body as sent upstream without `stream`/`stream_options`, and the namespace.
   */
  readonly key: string;
  /** Endpoint id: `chatComplete`, `complete`, `embed` ... */
  readonly endpoint: string;
  /** Canonical JSON of the provider identity (provider, host, hashed credentials, cloud fields); no secret in clear. */
  readonly identity: string;
  /** `x-gw-cache-namespace`, when sent. */
  readonly namespace: string | undefined;
  /** The body as sent upstream (after override/default/drop params). Read only. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Lifetime of an entry written for this request. */
  readonly maxAgeSeconds: number;
  readonly attempt: Attempt;
  /** A mode's own per-request value between `lookup` and `save` (e.g. the request's embedding). */
  modeState?: unknown;
}

export interface CacheHit {
  readonly status: 'HIT' | 'SEMANTIC HIT';
  /** The stored entry, as written by `save`. */
  readonly value: Uint8Array;
}

/**
 * A cache mode, registered in `registries.cacheModes` under `mode` by its plugin.
 * Neither method may throw for a store or network failure: a failure is a miss (or no write).
 */
export interface CacheMode {
  readonly mode: string;
  /** Finds an entry answering the request; undefined is a miss. */
  lookup(request: CacheRequest, store: CacheStore): Promise<CacheHit | undefined>;
  /** Writes the entry for the request (its final answer was a complete 200). */
  save(request: CacheRequest, value: Uint8Array, store: CacheStore): Promise<void>;
}
