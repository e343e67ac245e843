/**
 * The response-cache store contract. Entries are opaque bytes with a time to live; the cache
 * mode plugins decide what goes in. Process memory by default; Redis for several instances.
 * A store that fails answers as a miss (and says so in its logs): a cache never fails a request.
 */
export interface CacheStore {
  readonly kind: string;
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A cache mode (`simple`, `semantic` ...), registered by its plugin under `cache.mode`. */
export interface CacheMode {
  readonly mode: string;
  [member: string]: unknown;
}
