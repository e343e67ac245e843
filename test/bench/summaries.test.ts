/** What the bench reports from its runs: medians, ratios of rounds, CPU per request, added latency. */
import { expect } from 'chai';
import type { LoadResult } from './load.js';
import type { SequentialStats } from './sequential.js';
import { summariseLatency, summariseLoad, summariseStreams, type LoadRound } from './summaries.js';

const run = (target: string, rps: number, cpu?: [number, number], failures = 0): LoadResult => ({
  target, rps, p50: 1, p99: 5, requests: rps * 5, errors: failures, timeouts: 0, non2xx: 0,
  ...(cpu ? { cpu: { serverUs: cpu[0], upstreamUs: cpu[1], tailUs: 0 } } : {}),
});

const seq = (target: string, first: [number, number], total: [number, number]): SequentialStats =>
  ({ target, samples: 100, firstP50: first[0], firstP99: first[1], totalP50: total[0], totalP99: total[1] });

describe('bench: summaries', () => {
  it('ratios are medians of each round\'s own ratio, CPU per request likewise', () => {
    const rounds: LoadRound[] = [
      { round: 1, baseline: run('bare-undici', 1000, [50, 20]), subject: run('gateway', 900, [60, 21]) },
      { round: 2, baseline: run('bare-undici', 2000, [40, 20]), subject: run('gateway', 1000, [100, 22], 3) },
      { round: 3, baseline: run('bare-undici', 500, [45, 19]), subject: run('gateway', 400, [54, 23]) },
    ];
    const s = summariseLoad('chat', 32, 5, rounds);
    expect(s.baseline).to.equal('bare-undici');
    expect(s.ratio).to.equal(0.8); // 0.9, 0.5, 0.8: not 1000 / 1000 from the medians of each side
    expect(s.baselineRps).to.equal(1000);
    expect(s.subjectRps).to.equal(900);
    expect(s.subjectFailures).to.equal(3);
    expect(s.baselineFailures).to.equal(0);
    expect(s.cpu).to.deep.equal({ baselineUs: 45, subjectUs: 60, ratio: 1.2, baselineUpstreamUs: 20, subjectUpstreamUs: 22 });
  });

  it('leaves CPU out when a run could not read it (no /proc)', () => {
    const s = summariseLoad('chat', 32, 5, [{ round: 1, baseline: run('bare-undici', 1000), subject: run('gateway', 900, [1, 1]) }]);
    expect(s).not.to.have.property('cpu');
  });

  it('added latency is gateway minus baseline: the whole answer, or a stream\'s first chunk', () => {
    const base = seq('bare-undici', [200, 900], [300, 1000]);
    const gw = seq('gateway', [250, 1300], [420, 1500]);
    const answer = summariseLatency('latency', false, base, gw);
    expect([answer.metric, answer.addedP50, answer.addedP99]).to.deep.equal(['answer', 120, 500]);
    const first = summariseLatency('first-chunk', true, base, gw);
    expect([first.metric, first.addedP50, first.addedP99]).to.deep.equal(['first chunk', 50, 400]);
  });

  it('calls a stream buffered when its first byte comes after half of its whole time', () => {
    const base = seq('bare-undici', [50_000, 60_000], [300_000, 310_000]);
    expect(summariseStreams('stream', 50, base, seq('gateway', [51_000, 70_000], [301_000, 320_000])).buffered).to.equal(false);
    expect(summariseStreams('stream', 50, base, seq('gateway', [290_000, 300_000], [301_000, 320_000])).buffered).to.equal(true);
  });
});
