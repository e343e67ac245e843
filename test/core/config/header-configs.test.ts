/** HeaderConfigs: the same headers give the very same frozen config (validated once by the kernel); anything else a new one. */
import { expect } from 'chai';
import { BoundedMap, HeaderConfigs } from '../../../core/index.js';
import { builtinConfigKeys } from '../../helpers/config-keys.js';

const keys = await builtinConfigKeys();

describe('HeaderConfigs', () => {
  const direct = (key = 'sk-1') => ({ 'x-gw-provider': 'openai', authorization: `Bearer ${key}`, 'x-gw-custom-host': 'http://h/v1', 'content-type': 'application/json' });

  it('answers the same frozen fields object for the same header values', () => {
    const memo = new HeaderConfigs(keys);
    const a = memo.fields(direct(), false);
    const b = memo.fields({ ...direct(), 'x-gw-trace-id': 'other', 'user-agent': 'x' }, false);
    expect(a).to.deep.equal({ provider: 'openai', custom_host: 'http://h/v1', api_key: 'sk-1' });
    expect(b).to.equal(a);
    expect(Object.isFrozen(a)).to.equal(true);
  });

  it('tells apart other values, another key and whether a config came with them', () => {
    const memo = new HeaderConfigs(keys);
    const a = memo.fields(direct(), false);
    expect(memo.fields(direct('sk-2'), false)).to.not.equal(a);
    expect(memo.fields(direct('sk-2'), false)!['api_key']).to.equal('sk-2');
    expect(memo.fields({ authorization: 'Bearer sk-1' }, false)).to.equal(undefined);
    expect(memo.fields({ authorization: 'Bearer sk-1' }, true)).to.deep.equal({ api_key: 'sk-1' });
  });

  it('keeps refusing a bad header (errors are not remembered as configs)', () => {
    const memo = new HeaderConfigs(keys);
    for (let i = 0; i < 2; i++) expect(() => memo.fields({ 'x-gw-retry': 'x' }, false)).to.throw(/x-gw-retry/);
    expect(() => memo.fields({ 'x-gw-unknown-thing': '1' }, false)).to.throw(/not a known x-gw- header/);
  });

  it('merges header fields beneath a config once per pair, frozen, config keys on top', () => {
    const memo = new HeaderConfigs(keys);
    const config = Object.freeze({ retry: { attempts: 2 }, provider: 'openai' });
    const fields = memo.fields(direct(), true);
    const merged = memo.beneath(fields, config);
    expect(merged).to.deep.equal({ provider: 'openai', custom_host: 'http://h/v1', api_key: 'sk-1', retry: { attempts: 2 } });
    expect(memo.beneath(fields, config)).to.equal(merged);
    expect(Object.isFrozen(merged)).to.equal(true);
    expect(memo.beneath(undefined, config)).to.equal(config);
    expect(memo.beneath(memo.fields(direct('sk-3'), true), config)).to.not.equal(merged);
  });

  it('is bounded: the oldest entries go first', () => {
    const memo = new HeaderConfigs(keys, 2);
    const first = memo.fields(direct('a'), false);
    memo.fields(direct('b'), false);
    memo.fields(direct('c'), false);
    const again = memo.fields(direct('a'), false);
    expect(again).to.deep.equal(first);
    expect(again).to.not.equal(first);
  });
});

describe('BoundedMap', () => {
  it('drops the oldest entry when full, keeps a re-set key in place, and stores nothing with size 0', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('b', 3);
    expect(m.size).to.equal(2);
    m.set('c', 4);
    expect([m.get('a'), m.get('b'), m.get('c')]).to.deep.equal([undefined, 3, 4]);
    let made = 0;
    expect(m.remember('d', () => ++made)).to.equal(1);
    expect(m.remember('d', () => ++made)).to.equal(1);
    expect(() => m.remember('e', () => {
      throw new Error('bad');
    })).to.throw('bad');
    expect(m.get('e')).to.equal(undefined);
    const none = new BoundedMap<string, number>(0);
    none.set('a', 1);
    expect(none.get('a')).to.equal(undefined);
  });
});
