/** How the cache plugins compose: dependencies, the store token, and Redis taking over when configured. */
import { expect } from 'chai';
import { Services } from '../../../../core/index.js';
import { createGateway, type Gateway } from '../../../../host/index.js';
import CachePlugin from '../../../../plugins/cache/core/index.js';
import SimpleCachePlugin from '../../../../plugins/cache/simple/index.js';
import SemanticCachePlugin from '../../../../plugins/cache/semantic/index.js';
import MemoryCacheStorePlugin from '../../../../plugins/cache/store-memory/index.js';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import MemoryStatePlugin from '../../../../plugins/stores/state-memory/index.js';
import { deletePrefix, sharedRedisUrl, uniquePrefix } from '../../stores/redis/helpers.js';

const ENV = { GW_LOG_LEVEL: 'silent', GW_DATA_DIR: '/nonexistent-unused' };

describe('cache plugins: composition', () => {
  let gateway: Gateway | undefined;

  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  it('names its plugins <kind>.<name>, the modes depending on cache.core', () => {
    expect([CachePlugin, SimpleCachePlugin, SemanticCachePlugin, MemoryCacheStorePlugin, RedisStorePlugin].map((p) => p.manifest.id))
      .to.deep.equal(['cache.core', 'cache.simple', 'cache.semantic', 'cache.store-memory', 'store.redis']);
    expect(SimpleCachePlugin.manifest.dependsOn).to.deep.equal(['cache.core']);
    expect(SemanticCachePlugin.manifest.dependsOn).to.deep.equal(['cache.core']);
  });

  it('refuses to boot cache.core without a cache store, and a mode without cache.core', async () => {
    let error: unknown;
    try {
      await createGateway({ plugins: [CachePlugin, SimpleCachePlugin], env: ENV });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/plugin "cache\.core" requires the service "cache", which no loaded plugin provides/);
    error = undefined;
    try {
      await createGateway({ plugins: [MemoryCacheStorePlugin, SimpleCachePlugin], env: ENV });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/depends on "cache\.core", which is not loaded/);
  });

  it('without GW_REDIS_URL, store.redis registers nothing: the memory stores stay', async () => {
    gateway = await createGateway({ plugins: [MemoryStatePlugin, MemoryCacheStorePlugin, RedisStorePlugin, CachePlugin, SimpleCachePlugin], env: ENV });
    const { services, registries } = gateway.runtime;
    expect(services.get(Services.Cache).kind).to.equal('memory');
    expect(services.get(Services.State).kind).to.equal('memory');
    expect(registries.health.has('redis')).to.equal(false);
    expect(registries.cacheModes.keys()).to.deep.equal(['simple']);
  });

  it('with GW_REDIS_URL, Redis stores take over the tokens and a health check is registered', async function () {
    const url = sharedRedisUrl();
    if (!url) return this.skip();
    const prefix = uniquePrefix();
    gateway = await createGateway({
      plugins: [MemoryStatePlugin, MemoryCacheStorePlugin, { use: RedisStorePlugin, options: { keyPrefix: prefix } }, CachePlugin, SimpleCachePlugin],
      env: { ...ENV, GW_REDIS_URL: url },
    });
    const { services, registries } = gateway.runtime;
    expect(services.get(Services.Cache).kind).to.equal('redis');
    const state = services.get(Services.State);
    expect(state.kind).to.equal('redis');
    expect(await state.increment('probe', 1, 1000)).to.equal(1);
    expect(await registries.health.get('redis')!()).to.equal(true);
    await gateway.close();
    gateway = undefined;
    await deletePrefix(url, prefix);
  });
});
