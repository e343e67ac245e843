/** cache.store-memory: TTL, and bounds by entries and bytes with least-recently-used eviction. */
import { expect } from 'chai';
import sinon from 'sinon';
import { MemoryCacheStore } from '../../../../plugins/cache/store-memory/memory-store.js';

const bytes = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe('cache.store-memory', () => {
  let store: MemoryCacheStore;
  let clock: sinon.SinonFakeTimers | undefined;

  afterEach(() => {
    store?.close();
    clock?.restore();
    clock = undefined;
  });

  it('stores, reads and deletes values without copying them', async () => {
    store = new MemoryCacheStore({ maxEntries: 10, maxBytes: 10_000, checkPeriodSeconds: 60 });
    const value = bytes(100, 7);
    await store.set('k', value, 60);
    const read = await store.get('k');
    expect(read!.byteLength).to.equal(100);
    expect(read!.buffer).to.equal(value.buffer);
    expect(store.bytes).to.equal(100);
    await store.delete('k');
    expect(await store.get('k')).to.equal(undefined);
    expect(store.size).to.equal(0);
    expect(store.bytes).to.equal(0);
  });

  it('never returns an entry past its TTL, and forgets its bytes', async () => {
    clock = sinon.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    store = new MemoryCacheStore({ maxEntries: 10, maxBytes: 10_000, checkPeriodSeconds: 60 });
    await store.set('k', bytes(10), 5);
    clock.tick(4_999);
    expect(await store.get('k')).to.not.equal(undefined);
    clock.tick(2);
    expect(await store.get('k')).to.equal(undefined);
    expect(store.bytes).to.equal(0);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    store = new MemoryCacheStore({ maxEntries: 3, maxBytes: 10_000, checkPeriodSeconds: 60 });
    for (const k of ['a', 'b', 'c']) await store.set(k, bytes(10), 60);
    await store.get('a'); // a is now the most recent
    await store.set('d', bytes(10), 60);
    expect(await store.get('b')).to.equal(undefined);
    expect(await store.get('a')).to.not.equal(undefined);
    expect(await store.get('c')).to.not.equal(undefined);
    expect(store.size).to.equal(3);
  });

  it('evicts by bytes, counts an overwrite once, and skips a value larger than the whole budget', async () => {
    store = new MemoryCacheStore({ maxEntries: 100, maxBytes: 1000, checkPeriodSeconds: 60 });
    await store.set('a', bytes(400), 60);
    await store.set('b', bytes(400), 60);
    await store.set('b', bytes(300), 60);
    expect(store.bytes).to.equal(700);
    await store.set('c', bytes(400), 60);
    expect(await store.get('a')).to.equal(undefined);
    expect(store.bytes).to.equal(700);
    await store.set('huge', bytes(1001), 60);
    expect(await store.get('huge')).to.equal(undefined);
    expect(store.bytes).to.equal(700);
  });
});
