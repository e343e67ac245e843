/** strategy.loadbalance end to end: a real gateway in front of several mock OpenAI providers. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, sdkClient, seededRandom, send, startMocks, STRATEGY_PLUGINS } from '../fallback/harness.js';

describe('strategy.loadbalance (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  const loadbalance = (targets: unknown[]) => ({ strategy: { mode: 'loadbalance' }, targets });

  before(async () => {
    // The request log only costs time here (600 requests below); nothing in these tests reads it.
    gw = await startGateway({ composition: { plugins: STRATEGY_PLUGINS, disable: ['observe.access-log'] } });
    mocks = await startMocks(3);
  });
  afterEach(() => {
    sinon.restore();
    mocks.forEach((m) => m.reset());
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('spreads requests by weight 1:2:0 (600 requests, within 6 points), the header naming the mock that served', async function () {
    this.timeout(30_000); // ~1.5 s alone; a busy CI machine can take several times that
    sinon.stub(Math, 'random').callsFake(seededRandom(20240611));
    const config = loadbalance([leaf(mocks[0]!, { weight: 1 }), leaf(mocks[1]!, { weight: 2 }), leaf(mocks[2]!, { weight: 0 })]);
    const served = [0, 0, 0];
    const total = 600;
    const concurrency = 20;
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const res = await send(gw, config);
        expect(res.status).to.equal(200);
        const index = /^config\.targets\[(\d)\]$/.exec(res.headers.get('x-gw-last-used-option-index') ?? '');
        served[Number(index![1])]!++;
      }
    }));
    expect(counts(mocks)).to.deep.equal(served);
    expect((100 * served[0]!) / total).to.be.closeTo(100 / 3, 6);
    expect((100 * served[1]!) / total).to.be.closeTo(200 / 3, 6);
    expect(served[2]).to.equal(0);
  });

  it('treats a missing weight as 1', async () => {
    const random = sinon.stub(Math, 'random');
    const config = loadbalance([leaf(mocks[0]!), leaf(mocks[1]!)]);
    random.returns(0.49);
    expect((await send(gw, config)).headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    random.returns(0.51);
    expect((await send(gw, config)).headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    expect(counts(mocks)).to.deep.equal([1, 1, 0]);
  });

  it("serves the chosen target's failure as is: no fallback to the others", async () => {
    sinon.stub(Math, 'random').returns(0);
    mocks[0]!.next({ status: 503 });
    const res = await send(gw, loadbalance([leaf(mocks[0]!), leaf(mocks[1]!)]));
    expect(res.status).to.equal(503);
    expect(res.json.provider).to.equal('openai');
    expect(counts(mocks)).to.deep.equal([1, 0, 0]);
  });

  it('rejects a node whose weights are all 0 when the config is validated (400 naming targets)', async () => {
    const res = await send(gw, loadbalance([leaf(mocks[0]!, { weight: 0 }), leaf(mocks[1]!, { weight: 0 })]));
    expect(res.status).to.equal(400);
    expect(res.json.error.code).to.equal('invalid_config');
    expect(res.json.error.param).to.equal('targets');
    expect(res.json.error.message).to.equal('config.targets: every target has weight 0: strategy.mode "loadbalance" needs at least one target with a weight above 0');
    expect(counts(mocks)).to.deep.equal([0, 0, 0]);
  });

  it('names the path of a nested all-zero node', async () => {
    const config = { strategy: { mode: 'fallback' }, targets: [leaf(mocks[0]!), loadbalance([leaf(mocks[1]!, { weight: 0 })])] };
    const res = await send(gw, config);
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.match(/^config\.targets\.1\.targets: every target has weight 0/);
    expect(counts(mocks)).to.deep.equal([0, 0, 0]);
  });

  it('rejects a negative weight (config schema)', async () => {
    const res = await send(gw, loadbalance([leaf(mocks[0]!, { weight: -1 })]));
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.equal('config.targets.0.weight: must be >= 0');
  });

  it('works for the OpenAI SDK', async () => {
    sinon.stub(Math, 'random').returns(0.7);
    const client = await sdkClient(gw, loadbalance([leaf(mocks[0]!), leaf(mocks[1]!)]));
    const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.object).to.equal('chat.completion');
    expect(response.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    expect(counts(mocks)).to.deep.equal([0, 1, 0]);
  });
});
