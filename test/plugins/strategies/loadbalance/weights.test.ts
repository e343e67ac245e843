/** Weighted choice without the network: the cumulative weights, the pick, the strategy with a fake run. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { ConfigNode, RequestContext, RunTarget } from '../../../../core/index.js';
import { loadbalanceStrategy } from '../../../../plugins/strategies/loadbalance/index.js';
import { cumulativeWeights, noChoiceReason, pick } from '../../../../plugins/strategies/loadbalance/weights.js';

const ctx = {} as RequestContext;
const node = (targets: ConfigNode[]): ConfigNode => ({ strategy: { mode: 'loadbalance' }, targets });
const recordRun = (picked: number[]): RunTarget => (i) => { picked.push(i); return Promise.resolve({ status: 200, retries: 0 }); };

describe('strategy.loadbalance weights', () => {
  afterEach(() => sinon.restore());

  it('adds up weights, a missing weight counting 1', () => {
    expect([...cumulativeWeights([{ weight: 2 }, {}, { weight: 0 }, { weight: 0.5 }])]).to.deep.equal([2, 3, 3, 3.5]);
  });

  it('computes once per targets array', () => {
    const targets = [{ weight: 1 }, { weight: 3 }];
    expect(cumulativeWeights(targets)).to.equal(cumulativeWeights(targets));
    expect(cumulativeWeights([...targets])).to.not.equal(cumulativeWeights(targets));
  });

  it('maps a draw onto the weight intervals, never onto a weight of 0', () => {
    const cumulative = cumulativeWeights([{ weight: 0 }, { weight: 1 }, { weight: 0 }, { weight: 2 }, { weight: 0 }]);
    expect(pick(cumulative, 0)).to.equal(1);
    expect(pick(cumulative, 0.3333)).to.equal(1);
    expect(pick(cumulative, 1 / 3)).to.equal(3);
    expect(pick(cumulative, 0.999999)).to.equal(3);
  });

  it('names why no target can be chosen', () => {
    expect(noChoiceReason(cumulativeWeights([{ weight: 0 }, { weight: 0 }]))).to.match(/every target has weight 0/);
    expect(noChoiceReason(cumulativeWeights([{ weight: 1e308 }, { weight: 1e308 }]))).to.match(/finite/);
    expect(noChoiceReason(cumulativeWeights([{ weight: 0 }, { weight: 0.001 }]))).to.equal(undefined);
  });

  it('routes to the target Math.random lands on', async () => {
    const picked: number[] = [];
    const random = sinon.stub(Math, 'random');
    random.onCall(0).returns(0.49).onCall(1).returns(0.5).onCall(2).returns(0.99);
    const n = node([{}, {}]);
    for (let i = 0; i < 3; i++) await loadbalanceStrategy.route(n, recordRun(picked), ctx);
    expect(picked).to.deep.equal([0, 1, 1]);
  });

  it('answers a 400 naming targets when every weight is 0, without running any', async () => {
    const picked: number[] = [];
    const outcome = await loadbalanceStrategy.route(node([{ weight: 0 }, { weight: 0 }]), recordRun(picked), ctx);
    expect(outcome.status).to.equal(400);
    expect(outcome.error?.message).to.match(/^config\.targets: every target has weight 0/);
    expect(picked).to.deep.equal([]);
  });

  it('follows the weights with the real Math.random (1:2:0 over 6000 draws, within 3 points)', async () => {
    const picked: number[] = [];
    const n = node([{ weight: 1 }, { weight: 2 }, { weight: 0 }]);
    const run = recordRun(picked);
    for (let i = 0; i < 6000; i++) await loadbalanceStrategy.route(n, run, ctx);
    const share = (k: number) => (100 * picked.filter((p) => p === k).length) / picked.length;
    expect(share(0)).to.be.closeTo(100 / 3, 3);
    expect(share(1)).to.be.closeTo(200 / 3, 3);
    expect(share(2)).to.equal(0);
  });
});
