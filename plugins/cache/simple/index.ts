/**
 * cache.simple: the `simple` cache mode, an exact match on the key cache.core builds (endpoint,
 * provider identity, body as sent upstream without stream fields, namespace).
 */
import type { CacheMode, Plugin, PluginApi } from '../../../core/index.js';

export const simpleMode: CacheMode = {
  mode: 'simple',
  async lookup(request, store) {
    const value = await store.get(request.key);
    return value ? { status: 'HIT', value } : undefined;
  },
  save: (request, value, store) => store.set(request.key, value, request.maxAgeSeconds),
};

export default class SimpleCachePlugin implements Plugin {
  static readonly manifest = { id: 'cache.simple', description: 'Cache mode "simple": exact match', dependsOn: ['cache.core'] };

  apply(api: PluginApi): void {
    api.registries.cacheModes.register(simpleMode.mode, simpleMode, api.id);
  }
}
