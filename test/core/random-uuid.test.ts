/** randomUuid: version 4 UUIDs, as crypto.randomUUID makes them, none repeated across the batches they are written in. */
import { expect } from 'chai';
import { randomUuid } from '../../core/ids.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('makes version 4 UUIDs in lower case, none repeated over many batches', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = randomUuid();
      expect(id).to.match(V4);
      seen.add(id);
    }
    expect(seen.size).to.equal(5000);
  });

  it('gives each id as a string of its own, unchanged when the next batch is written', () => {
    const first = randomUuid();
    const copy = `${first}`;
    for (let i = 0; i < 300; i++) randomUuid();
    expect(first).to.equal(copy);
  });

  it('uses every hex digit in every random position (no stuck bits)', () => {
    const digits = Array.from({ length: 36 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) [...randomUuid()].forEach((c, at) => digits[at]!.add(c));
    const sizes = digits.map((d) => d.size);
    // Dashes, the version digit (4) and the variant digit (8, 9, a, b) are fixed or limited; the rest vary fully.
    expect(sizes.filter((n) => n === 16)).to.have.length(36 - 4 - 1 - 1);
    expect(sizes[14]).to.equal(1);
    expect(sizes[19]).to.equal(4);
  });
});
