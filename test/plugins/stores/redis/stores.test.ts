/** store.redis stores against the shared Redis (GW_REDIS_URL; skipped without it). */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { RedisCacheStore } from '../../../../plugins/stores/redis/cache-store.js';
import { closeClient, createRedisClient, waitReady } from '../../../../plugins/stores/redis/client.js';
import { RedisStateStore } from '../../../../plugins/stores/redis/state-store.js';
import { deletePrefix, sharedRedisUrl, uniquePrefix } from './helpers.js';

describe('store.redis stores', function () {
  const url = sharedRedisUrl();
  const prefix = uniquePrefix();
  let client: Redis;
  const warnings: unknown[] = [];

  before(async function () {
    if (!url) return this.skip();
    client = createRedisClient({ url, keyPrefix: prefix, commandTimeoutMs: 200, connectTimeoutMs: 1000 }, () => undefined);
    expect(await waitReady(client, 2000)).to.equal(true);
  });

  after(async () => {
    if (!url) return;
    await closeClient(client);
    await deletePrefix(url, prefix);
  });

  it('state: get, set with and without TTL, delete', async () => {
    const state = new RedisStateStore(client);
    await state.set('a', 'one');
    expect(await state.get('a')).to.equal('one');
    await state.set('b', 'two', 50);
    expect(await client.pttl('state:b')).to.be.within(1, 50);
    await state.delete('a');
    expect(await state.get('a')).to.equal(undefined);
    expect(await client.exists('state:a')).to.equal(0);
  });

  it('state: increment is atomic under concurrency and sets the TTL only when it creates the key', async () => {
    const state = new RedisStateStore(client);
    const results = await Promise.all(Array.from({ length: 100 }, () => state.increment('counter', 1, 60_000)));
    expect(Math.max(...results)).to.equal(100);
    expect(new Set(results).size).to.equal(100);
    const ttl = await client.pttl('state:counter');
    expect(ttl).to.be.within(1, 60_000);
    await state.increment('counter', 5, 999_999_999);
    expect(await client.pttl('state:counter')).to.be.at.most(60_000);
    expect(await state.increment('counter', -6)).to.equal(99);
    expect(await state.increment('plain')).to.equal(1);
    expect(await client.pttl('state:plain')).to.equal(-1);
    expect(await state.increment('float', 0.5, 1000)).to.equal(0.5);
    expect(await state.increment('float', 0.25)).to.equal(0.75);
  });

  it('state: setIfAbsent sets once, with its TTL, until the key is gone', async () => {
    const state = new RedisStateStore(client);
    const claims = await Promise.all(Array.from({ length: 20 }, () => state.setIfAbsent('lock', 'me', 5000)));
    expect(claims.filter(Boolean)).to.have.length(1);
    expect(await client.pttl('state:lock')).to.be.within(1, 5000);
    expect(await state.get('lock')).to.equal('me');
    await state.delete('lock');
    expect(await state.setIfAbsent('lock', 'again', 5000)).to.equal(true);
  });

  it('cache: round-trips bytes under its own prefix with a TTL in seconds', async () => {
    const cache = new RedisCacheStore(client, (e) => warnings.push(e));
    const value = new Uint8Array([0, 1, 2, 255, 10, 13]);
    await cache.set('k', value, 30);
    expect([...(await cache.get('k'))!]).to.deep.equal([...value]);
    expect(await client.ttl('cache:k')).to.be.within(29, 30);
    await cache.delete('k');
    expect(await cache.get('k')).to.equal(undefined);
    expect(await cache.get('never-set')).to.equal(undefined);
    expect(warnings).to.deep.equal([]);
  });
});
