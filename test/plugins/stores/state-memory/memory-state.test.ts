/** The process-memory StateStore: setIfAbsent as a short lock (expiry on an injected clock). */
import { expect } from 'chai';
import { MemoryStateStore } from '../../../../plugins/stores/state-memory/memory-state.js';

describe('state.memory: MemoryStateStore.setIfAbsent', () => {
  let at = 1_000;
  let store: MemoryStateStore;
  beforeEach(() => {
    at = 1_000;
    store = new MemoryStateStore(60_000, () => at);
  });
  afterEach(() => store.close());

  it('sets only when absent: one of several concurrent claims wins', async () => {
    const claims = await Promise.all(Array.from({ length: 5 }, () => store.setIfAbsent('lock', 'me', 100)));
    expect(claims.filter(Boolean)).to.have.length(1);
    expect(await store.get('lock')).to.equal('me');
  });

  it('can be taken again once the holder deleted it or its time to live ran out', async () => {
    expect(await store.setIfAbsent('lock', 'a', 100)).to.equal(true);
    await store.delete('lock');
    expect(await store.setIfAbsent('lock', 'b', 100)).to.equal(true);
    at += 99;
    expect(await store.setIfAbsent('lock', 'c', 100)).to.equal(false);
    at += 1;
    expect(await store.setIfAbsent('lock', 'c', 100)).to.equal(true);
    expect(await store.get('lock')).to.equal('c');
  });
});
