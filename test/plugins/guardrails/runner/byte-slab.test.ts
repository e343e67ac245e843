/** ByteSlab: buffers cut from shared slabs never overlap, and big ones get their own memory. */
import { expect } from 'chai';
import { ByteSlab } from '../../../../plugins/guardrails/runner/byte-slab.js';

describe('guardrails.runner: ByteSlab', () => {
  it('hands out buffers of the asked size that never share bytes', () => {
    const slab = new ByteSlab(1024);
    const sizes = [1, 7, 8, 100, 255, 3, 64, 200, 13];
    const cut = sizes.map((n, i) => {
      const b = slab.alloc(n);
      b.fill(i + 1);
      return b;
    });
    cut.forEach((b, i) => {
      expect(b.length).to.equal(sizes[i]);
      expect([...b].every((x) => x === i + 1), `buffer ${i} kept its bytes`).to.equal(true);
    });
  });

  it('starts a new slab when one is full, leaving the buffers of the old one intact', () => {
    const slab = new ByteSlab(1024);
    const first = slab.alloc(200).fill(1);
    const kept: Buffer[] = [];
    for (let i = 0; i < 10; i++) kept.push(slab.alloc(200).fill(i + 2));
    expect(new Set(kept.map((b) => b.buffer)).size).to.be.greaterThan(1);
    expect([...first].every((x) => x === 1)).to.equal(true);
    kept.forEach((b, i) => expect([...b].every((x) => x === i + 2)).to.equal(true));
  });

  it('gives a request over a quarter slab its own buffer, and aligns cuts to 8 bytes', () => {
    const slab = new ByteSlab(1024);
    const small = slab.alloc(3);
    const big = slab.alloc(257);
    expect(big.length).to.equal(257);
    expect(big.buffer).not.to.equal(small.buffer);
    const next = slab.alloc(5);
    expect(next.buffer).to.equal(small.buffer);
    expect(next.byteOffset - small.byteOffset).to.equal(8);
  });
});
