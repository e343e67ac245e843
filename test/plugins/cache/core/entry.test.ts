/** The stored entry: metadata line + answer bytes; expired, malformed or foreign entries are misses. */
import { expect } from 'chai';
import { decodeEntry, encodeEntry } from '../../../../plugins/cache/core/entry.js';

const answer = '{\n  "id": "chatcmpl-1",\n  "choices": []\n}';

describe('cache entry', () => {
  it('round-trips the answer bytes untouched (pretty-printed JSON included) with its metadata', () => {
    const value = encodeEntry({ v: 1, created_at: 1000, expires_at: 5000, provider: 'openai' }, answer);
    const entry = decodeEntry(value, 4999)!;
    expect(entry.meta).to.deep.equal({ v: 1, created_at: 1000, expires_at: 5000, provider: 'openai' });
    expect(new TextDecoder().decode(entry.body)).to.equal(answer);
    expect(decodeEntry(encodeEntry(entry.meta, new TextEncoder().encode(answer)), 0)!.body).to.deep.equal(entry.body);
  });

  it('is a miss once expired, and for malformed or other-version values', () => {
    const value = encodeEntry({ v: 1, created_at: 1000, expires_at: 5000 }, answer);
    expect(decodeEntry(value, 5000)).to.equal(undefined);
    expect(decodeEntry(new TextEncoder().encode('not json\n{}'), 0)).to.equal(undefined);
    expect(decodeEntry(new TextEncoder().encode('{"v":2,"expires_at":9e15}\n{}'), 0)).to.equal(undefined);
    expect(decodeEntry(new TextEncoder().encode('{"v":1}'), 0)).to.equal(undefined);
  });
});
