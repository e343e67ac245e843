/**
 * CacheStore in process memory, on node-cache (TTL per entry, periodic sweep of expired ones),
 * bounded by entry count and by bytes: the least recently used entries are evicted first.
 * Values are kept without copies (useClones off), as Buffers so node-cache sizes them cheaply;
 * readers must not mutate what `get` returns.
 */
import NodeCache from 'node-cache';
import { asBuffer, type CacheStore } from '../../../core/index.js';

export interface MemoryStoreLimits {
  maxEntries: number;
  maxBytes: number;
  /** How often expired entries are swept (seconds); reads never return an expired entry anyway. */
  checkPeriodSeconds: number;
}

export class MemoryCacheStore implements CacheStore {
  readonly kind = 'memory';
  readonly #cache: NodeCache;
  /** Keys in recency order, least recent first (a Set keeps insertion order). */
  readonly #order = new Set<string>();
  #bytes = 0;

  constructor(private readonly limits: MemoryStoreLimits) {
    this.#cache = new NodeCache({ useClones: false, checkperiod: limits.checkPeriodSeconds, deleteOnExpire: true });
    // Every removal (delete, expiry, eviction, overwrite) passes here, so the byte count stays exact.
    this.#cache.on('del', (key: string, value: Buffer) => {
      if (this.#order.delete(key)) this.#bytes -= value.byteLength;
    });
  }

  get size(): number {
    return this.#order.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const value = this.#cache.get<Buffer>(key);
    if (value === undefined) return undefined;
    this.#order.delete(key);
    this.#order.add(key);
    return value;
  }

  async set(key: string, value: Uint8Array, ttlSeconds: number): Promise<void> {
    const size = value.byteLength;
    if (size > this.limits.maxBytes || ttlSeconds <= 0) return;
    if (this.#order.has(key)) this.#cache.del(key);
    while (this.#order.size > 0 && (this.#order.size >= this.limits.maxEntries || this.#bytes + size > this.limits.maxBytes)) {
      this.#cache.del(this.#order.values().next().value!);
    }
    const buffer = asBuffer(value);
    this.#cache.set(key, buffer, ttlSeconds);
    this.#order.add(key);
    this.#bytes += size;
  }

  async delete(key: string): Promise<void> {
    this.#cache.del(key);
  }

  close(): void {
    this.#cache.close();
    this.#cache.flushAll();
  }
}
