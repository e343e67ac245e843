/** BoundedMap: insertion-order eviction, and the last key found answered without a lookup. */
import { expect } from 'chai';
import { BoundedMap } from '../../core/index.js';

/** A string equal to `s` but not the same object (as a header value parsed afresh is). */
const fresh = (s: string) => Buffer.from(s).toString();

describe('core: BoundedMap', () => {
  it('evicts the oldest entry when full, and keeps nothing with a bound of 0', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    expect([m.get('a'), m.get('b'), m.get('c'), m.size]).to.deep.equal([undefined, 2, 3, 2]);
    const none = new BoundedMap<string, number>(0);
    none.set('a', 1);
    expect(none.get('a')).to.equal(undefined);
  });

  it('finds an equal string that arrives fresh, the last one found included', () => {
    const long = 'x'.repeat(500);
    const m = new BoundedMap<string, string>(10);
    m.set(long, 'config');
    expect(m.get(fresh(long))).to.equal('config');
    expect(m.get(fresh(long))).to.equal('config');
    expect(m.get(fresh(long.slice(1) + 'y'))).to.equal(undefined);
  });

  it('answers the new value after the last key found is set again', () => {
    const m = new BoundedMap<string, number>(10);
    m.set('k', 1);
    expect(m.get('k')).to.equal(1);
    m.set(fresh('k'), 2);
    expect(m.get('k')).to.equal(2);
    expect(m.remember('k', () => 3)).to.equal(2);
  });

  it('forgets the last key found when it is evicted', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    expect(m.get('a')).to.equal(1);
    m.set('b', 2);
    m.set('c', 3); // evicts a
    expect(m.get('a')).to.equal(undefined);
    expect(m.remember('a', () => 4)).to.equal(4);
    expect(m.get('b')).to.equal(undefined); // a's return evicted b
  });

  it('gives make the key, so one function serves every key', () => {
    const m = new BoundedMap<string, string>(4);
    const quote = (k: string) => `"${k}"`;
    expect(m.remember('a', quote)).to.equal('"a"');
    expect(m.remember('b', quote)).to.equal('"b"');
    expect(m.get('a')).to.equal('"a"');
  });

  it('keeps objects by identity and makes nothing when make throws', () => {
    const m = new BoundedMap<object, string>(4);
    const key = {};
    m.set(key, 'v');
    expect(m.get(key)).to.equal('v');
    expect(m.get({})).to.equal(undefined);
    expect(() => m.remember({}, () => {
      throw new Error('no');
    })).to.throw('no');
    expect(m.size).to.equal(1);
  });
});
