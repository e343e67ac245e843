/** Loadbalance at the root of a three-level tree: loadbalance → conditional → fallback. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, send, startMocks, STRATEGY_PLUGINS } from '../fallback/harness.js';

describe('strategy.loadbalance nested three levels deep', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  let a: MockOpenAI, b: MockOpenAI, c: MockOpenAI, d: MockOpenAI;
  const optionIndex = (res: { headers: Headers }) => res.headers.get('x-gw-last-used-option-index');

  /** Weights 1:3; the heavy side routes gpt-4o to a fallback pair (on 503 only), the rest to a cheap leaf. */
  const config = () => ({
    strategy: { mode: 'loadbalance' },
    targets: [
      leaf(a, { weight: 1 }),
      {
        weight: 3,
        api_key: 'sk-heavy', // inherited by every leaf below that does not set its own
        strategy: { mode: 'conditional', conditions: [{ query: { 'params.model': { $regex: '^gpt-4o$' } }, then: 'robust' }], default: 'cheap' },
        targets: [
          { name: 'cheap', provider: 'openai', custom_host: `${b.url}/v1` },
          {
            name: 'robust',
            strategy: { mode: 'fallback', on_status_codes: [503] },
            targets: [{ provider: 'openai', custom_host: `${c.url}/v1` }, leaf(d, { api_key: 'sk-d' })],
          },
        ],
      },
    ],
  });
  const gpt4o = { ...CHAT_BODY, model: 'gpt-4o' };

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

  it('a low draw lands on the light target', async () => {
    sinon.stub(Math, 'random').returns(0.2);
    expect(optionIndex(await send(gw, config(), { body: gpt4o }))).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([1, 0, 0, 0]);
  });

  it('a high draw goes down the condition to the cheap leaf, with the inherited key', async () => {
    sinon.stub(Math, 'random').returns(0.9);
    const res = await send(gw, config());
    expect(optionIndex(res)).to.equal('config.targets[1].targets[0]');
    expect(b.requests[0]!.headers['authorization']).to.equal('Bearer sk-heavy');
  });

  it('a high draw for gpt-4o reaches the fallback pair, which moves on for a 503', async () => {
    sinon.stub(Math, 'random').returns(0.9);
    c.next({ status: 503 });
    const res = await send(gw, config(), { body: gpt4o });
    expect(res.status).to.equal(200);
    expect(optionIndex(res)).to.equal('config.targets[1].targets[1].targets[1]');
    expect(c.requests[0]!.headers['authorization']).to.equal('Bearer sk-heavy');
    expect(d.requests[0]!.headers['authorization']).to.equal('Bearer sk-d');
    expect(counts(mocks)).to.deep.equal([0, 0, 1, 1]);
  });

  it('the fallback pair serves a 429 as is (not in its on_status_codes)', async () => {
    sinon.stub(Math, 'random').returns(0.9);
    c.next({ status: 429 });
    const res = await send(gw, config(), { body: gpt4o });
    expect(res.status).to.equal(429);
    expect(optionIndex(res)).to.equal('config.targets[1].targets[1].targets[0]');
    expect(counts(mocks)).to.deep.equal([0, 0, 1, 0]);
  });
});
