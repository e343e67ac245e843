/**
 * cache.store-memory: response-cache entries in process memory (one instance), registered as
 * Services.Cache. A Redis store plugin loaded after it takes over the service.
 */
import { Services, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { MemoryCacheStore } from './memory-store.js';

const Options = Type.Object({
  /** Most entries kept; the least recently used go first. */
  maxEntries: Type.Integer({ minimum: 1, default: 10_000 }),
  /** Most bytes of entries kept (default 64 MiB). */
  maxBytes: Type.Integer({ minimum: 1024, default: 64 * 1024 * 1024 }),
  /** Sweep period for expired entries, seconds. */
  checkPeriodSeconds: Type.Integer({ minimum: 1, default: 60 }),
}, { additionalProperties: false });

export default class MemoryCacheStorePlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'cache.store-memory', description: 'Response-cache entries in process memory', provides: [Services.Cache], options: Options };
  #store?: MemoryCacheStore;

  apply(api: PluginApi<Static<typeof Options>>): void {
    this.#store = new MemoryCacheStore(api.options);
    api.services.provide(Services.Cache, this.#store);
  }

  close(): void {
    this.#store?.close();
  }
}
