/** BoundedLabel: the values one label keeps (known ones, then the first `cap` seen), the rest read `other`. */
import { expect } from 'chai';
import { BoundedLabel, OTHER } from '../../../../plugins/observe/metrics/bounded-label.js';

describe('observe.metrics: BoundedLabel', () => {
  it('keeps the first `cap` values seen and reads every later one as other', () => {
    const label = new BoundedLabel(2);
    expect(['a', 'b', 'c', 'd'].map((v) => label.of(v))).to.deep.equal(['a', 'b', OTHER, OTHER]);
  });

  it('keeps a value it took after the cap is reached', () => {
    const label = new BoundedLabel(2);
    label.of('a');
    label.of('b');
    label.of('c');
    expect([label.of('a'), label.of('b'), label.of('c')]).to.deep.equal(['a', 'b', OTHER]);
  });

  it('keeps known values besides the cap, also once the cap is reached', () => {
    const label = new BoundedLabel(1, ['gpt-4o', 'claude-x']);
    expect(label.of('seen-first')).to.equal('seen-first');
    expect(label.of('seen-second')).to.equal(OTHER);
    expect(label.of('claude-x')).to.equal('claude-x');
    expect(label.of('gpt-4o')).to.equal('gpt-4o');
  });

  it('with a cap of 0 keeps only the known values', () => {
    const label = new BoundedLabel(0, ['known']);
    expect([label.of('known'), label.of('x'), label.of('')]).to.deep.equal(['known', OTHER, OTHER]);
  });

  it('does not count a repeated value twice against the cap', () => {
    const label = new BoundedLabel(2);
    for (let i = 0; i < 100; i++) label.of('same');
    expect(label.of('second')).to.equal('second');
    expect(label.of('third')).to.equal(OTHER);
  });
});
