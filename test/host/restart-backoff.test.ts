/** The wait before a dead worker is replaced: doubling while deaths repeat, capped, reset after a stable spell. */
import { expect } from 'chai';
import { RestartBackoff } from '../../host/restart-backoff.js';

describe('RestartBackoff', () => {
  const options = { baseMs: 100, maxMs: 1000, stableMs: 10_000 };

  it('doubles the wait for each death soon after the previous one, up to the ceiling', () => {
    const backoff = new RestartBackoff(options);
    const waits = [0, 1, 2, 3, 4, 5].map((i) => backoff.next(1000 + i * 500));
    expect(waits).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
  });

  it('starts over after a death-free spell longer than stableMs', () => {
    const backoff = new RestartBackoff(options);
    backoff.next(0);
    backoff.next(1000);
    expect(backoff.next(2000)).to.equal(400);
    expect(backoff.next(2000 + options.stableMs + 1)).to.equal(100);
  });

  it('stays finite after very many deaths', () => {
    const backoff = new RestartBackoff(options);
    let wait = 0;
    for (let i = 0; i < 2000; i++) wait = backoff.next(i);
    expect(wait).to.equal(options.maxMs);
  });
});
