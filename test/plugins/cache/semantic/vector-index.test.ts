/** The semantic index and what it compares: bounds, eviction, partitions, expiry, conversation text. */
import { expect } from 'chai';
import type { CacheRequest } from '../../../../core/index.js';
import { conversationText, partitionOf } from '../../../../plugins/cache/semantic/conversation.js';
import { unitVector, VectorIndex } from '../../../../plugins/cache/semantic/vector-index.js';

const v = (...xs: number[]) => unitVector(xs)!;
const request = (endpoint: string, body: Record<string, unknown>, namespace?: string): CacheRequest =>
  ({ key: 'k', endpoint, identity: '{"provider":"openai"}', namespace, body, maxAgeSeconds: 60, attempt: undefined as never });

describe('cache.semantic index', () => {
  it('finds the most similar vector of the partition at or above the threshold', () => {
    let now = 0;
    const index = new VectorIndex(10, 1_000_000, () => now);
    index.add('p', 'a', v(1, 0), 1000);
    index.add('p', 'b', v(0.8, 0.6), 1000);
    index.add('q', 'c', v(0.6, 0.8), 1000);
    expect(index.nearest('p', v(0.6, 0.8), 0.9)).to.deep.include({ key: 'b' });
    expect(index.nearest('p', v(0, 1), 0.9)).to.equal(undefined);
    expect(index.nearest('r', v(1, 0), 0)).to.equal(undefined);
    expect(index.nearest('p', v(1, 0, 0), 0)).to.equal(undefined); // another vector size
    now = 1000;
    expect(index.nearest('p', v(1, 0), 0)).to.equal(undefined); // expired
    expect(index.size).to.equal(1);
  });

  it('evicts the least recently used beyond maxEntries or maxBytes', () => {
    const index = new VectorIndex(2, 1_000_000, () => 0);
    index.add('p', 'a', v(1, 0), 1000);
    index.add('p', 'b', v(0, 1), 1000);
    expect(index.nearest('p', v(1, 0), 0.99)!.key).to.equal('a'); // a used: b is now the oldest
    index.add('p', 'c', v(1, 1), 1000);
    expect(index.size).to.equal(2);
    expect(index.nearest('p', v(0, 1), 0.99)).to.equal(undefined);

    const small = new VectorIndex(100, 2 * (64 * 4 + 256), () => 0);
    for (const key of ['x', 'y', 'z']) small.add('p', key, unitVector(new Array(64).fill(1))!, 1000);
    expect(small.size).to.equal(2);
    expect(small.bytes).to.be.at.most(2 * (64 * 4 + 256));
    small.delete('y');
    small.delete('z');
    expect(small.bytes).to.equal(0);
  });

  it('unit vectors: normalised, and undefined for zero or non-finite input', () => {
    expect([...v(3, 4)].map((x) => Math.round(x * 100) / 100)).to.deep.equal([0.6, 0.8]);
    expect(unitVector([0, 0])).to.equal(undefined);
    expect(unitVector([1, Number.NaN])).to.equal(undefined);
  });

  it('embeds the conversation text: roles and text parts for chat, the prompt for completions, the tail when long', () => {
    const chat = request('chatComplete', {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Look at' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'this' }] },
      ],
    });
    expect(conversationText(chat, 1000)).to.equal('system: Be brief.\nuser: Look at this');
    expect(conversationText(chat, 9)).to.equal('Look at this'.slice(-9));
    expect(conversationText(request('complete', { model: 'm', prompt: 'Once upon' }), 1000)).to.equal('Once upon');
    expect(conversationText(request('embed', { model: 'm', input: 'x' }), 1000)).to.equal(undefined);
    expect(conversationText(request('chatComplete', { model: 'm', messages: [{ role: 'user', content: '  ' }] }), 1000)).to.equal(undefined);
  });

  it('partitions by everything but the conversation and the stream fields', () => {
    const base = { model: 'm', temperature: 0, messages: [{ role: 'user', content: 'a' }] };
    const p = partitionOf(request('chatComplete', base));
    expect(partitionOf(request('chatComplete', { ...base, messages: [{ role: 'user', content: 'b' }], stream: true }))).to.equal(p);
    expect(partitionOf(request('chatComplete', { ...base, temperature: 1 }))).to.not.equal(p);
    expect(partitionOf(request('chatComplete', { ...base, model: 'n' }))).to.not.equal(p);
    expect(partitionOf(request('chatComplete', base, 'ns'))).to.not.equal(p);
    expect(partitionOf(request('complete', base))).to.not.equal(p);
  });
});
