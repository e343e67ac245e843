/** KeyMemo: the same key as the long way, found by the client's bytes; bounded; never shared across namespaces or identities. */
import { expect } from 'chai';
import { cacheKey, canonicalBody } from '../../../../plugins/cache/core/key.js';
import { KeyMemo } from '../../../../plugins/cache/core/key-memo.js';

describe('cache KeyMemo', () => {
  const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true };
  const raw = Buffer.from(JSON.stringify(body));
  const identity = '{"provider":"openai"}';
  const longWay = (ns?: string, id = identity) => cacheKey('chatComplete', id, ns, canonicalBody(body));

  it('answers the key the long way would, and computes it once per distinct body', () => {
    const memo = new KeyMemo(10);
    let computed = 0;
    const canonical = () => {
      computed++;
      return canonicalBody(body);
    };
    expect(memo.key('chatComplete', identity, undefined, raw, canonical)).to.equal(longWay());
    expect(memo.key('chatComplete', identity, undefined, Buffer.from(raw), canonical)).to.equal(longWay());
    expect(computed).to.equal(1);
  });

  it('keeps namespaces, identities and endpoints apart', () => {
    const memo = new KeyMemo(10);
    const canonical = () => canonicalBody(body);
    const a = memo.key('chatComplete', identity, undefined, raw, canonical);
    expect(memo.key('chatComplete', identity, 'team-a', raw, canonical)).to.equal(longWay('team-a')).and.not.equal(a);
    expect(memo.key('chatComplete', '{"provider":"anthropic"}', undefined, raw, canonical)).to.equal(longWay(undefined, '{"provider":"anthropic"}'));
    expect(memo.key('complete', identity, undefined, raw, canonical)).to.not.equal(a);
  });

  it('takes the long way without bytes, for bodies over 16 KiB, and when turned off', () => {
    let computed = 0;
    const canonical = () => {
      computed++;
      return canonicalBody(body);
    };
    const memo = new KeyMemo(10);
    memo.key('chatComplete', identity, undefined, undefined, canonical);
    memo.key('chatComplete', identity, undefined, undefined, canonical);
    const big = Buffer.alloc(16 * 1024 + 1, 0x20);
    memo.key('chatComplete', identity, undefined, big, canonical);
    memo.key('chatComplete', identity, undefined, big, canonical);
    const off = new KeyMemo(0);
    off.key('chatComplete', identity, undefined, raw, canonical);
    off.key('chatComplete', identity, undefined, raw, canonical);
    expect(computed).to.equal(6);
  });
});
