/** The bench's order statistics: nearest-rank percentiles, medians. */
import { expect } from 'chai';
import { median, percentile } from './stats.js';

describe('bench: stats', () => {
  it('takes nearest-rank percentiles, never interpolating, whatever the input order', () => {
    const xs = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(xs, 50)).to.equal(5);
    expect(percentile(xs, 90)).to.equal(9);
    expect(percentile(xs, 99)).to.equal(10);
    expect(percentile(xs, 0)).to.equal(1);
    expect(xs[0]).to.equal(5); // the input is not sorted in place
  });

  it('gives the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).to.equal(2);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
  });

  it('answers NaN for no values (shown as "-" in the tables)', () => {
    expect(percentile([], 50)).to.be.NaN;
    expect(median([])).to.be.NaN;
  });
});
