/** Conditional at the root of a three-level tree: conditional → fallback → loadbalance. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, send, sseData, startMocks, STRATEGY_PLUGINS, STREAM_BODY } from '../fallback/harness.js';

describe('strategy.conditional nested three levels deep', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  let a: MockOpenAI, b: MockOpenAI, c: MockOpenAI, d: MockOpenAI;
  const optionIndex = (res: { headers: Headers }) => res.headers.get('x-gw-last-used-option-index');

  /** EU traffic goes to a fallback whose first choice is a balanced pair; everything else to one leaf. */
  const config = () => ({
    strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.region': 'eu' }, then: 'eu' }], default: 'us' },
    targets: [
      leaf(a, { name: 'us' }),
      {
        name: 'eu',
        strategy: { mode: 'fallback' },
        targets: [
          { strategy: { mode: 'loadbalance' }, targets: [leaf(b), leaf(c)] },
          leaf(d),
        ],
      },
    ],
  });
  const eu = { metadata: { region: 'eu' } };

  before(async () => {
    gw = await startGateway({ plugins: STRATEGY_PLUGINS });
    mocks = await startMocks(4);
    [a, b, c, d] = mocks as [MockOpenAI, MockOpenAI, MockOpenAI, MockOpenAI];
  });
  afterEach(() => {
    sinon.restore();
    mocks.forEach((m) => m.reset());
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('the default branch serves what matches nothing', async () => {
    expect(optionIndex(await send(gw, config(), { metadata: { region: 'us' } }))).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([1, 0, 0, 0]);
  });

  it('the matching branch balances inside its first fallback choice', async () => {
    const random = sinon.stub(Math, 'random');
    random.returns(0.2);
    expect(optionIndex(await send(gw, config(), eu))).to.equal('config.targets[1].targets[0].targets[0]');
    random.returns(0.8);
    expect(optionIndex(await send(gw, config(), eu))).to.equal('config.targets[1].targets[0].targets[1]');
    expect(counts(mocks)).to.deep.equal([0, 1, 1, 0]);
  });

  it('a failure of the balanced leaf falls back to the second choice', async () => {
    sinon.stub(Math, 'random').returns(0.8);
    c.next({ status: 500 });
    const res = await send(gw, config(), eu);
    expect(res.status).to.equal(200);
    expect(optionIndex(res)).to.equal('config.targets[1].targets[1]');
    expect(counts(mocks)).to.deep.equal([0, 0, 1, 1]);
  });

  it('a stream that dies before its first byte deep in the tree falls back too', async () => {
    sinon.stub(Math, 'random').returns(0.2);
    b.next({ streamCutAfter: 0 });
    const res = await send(gw, config(), { ...eu, body: STREAM_BODY });
    expect(res.status).to.equal(200);
    expect(optionIndex(res)).to.equal('config.targets[1].targets[1]');
    expect(sseData(res.text).at(-1)).to.equal('[DONE]');
  });
});
