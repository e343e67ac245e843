/**
 * `$regex` on the linear-time engine, through a real gateway: a pattern that backtracks
 * exponentially answers at once and stalls no other request; what the engine cannot run is a 400
 * naming the query path, before any provider is called.
 */
import { expect } from 'chai';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, send, startMocks, STRATEGY_PLUGINS } from '../fallback/harness.js';

describe('strategy.conditional $regex patterns (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];

  const routeBy = (regex: string) => ({
    strategy: { mode: 'conditional', conditions: [{ query: { 'params.messages.0.content': { $regex: regex } }, then: 'matched' }], default: 'other' },
    targets: [leaf(mocks[0]!, { name: 'other' }), leaf(mocks[1]!, { name: 'matched' })],
  });
  const chat = (content: string) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

  before(async () => {
    gw = await startGateway({ plugins: STRATEGY_PLUGINS });
    mocks = await startMocks(2);
  });
  afterEach(() => mocks.forEach((m) => m.reset()));
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('^(a+)+$ against 100,000 a and a ! routes to the default promptly, while other requests are served', async () => {
    const config = routeBy('^(a+)+$');
    const started = Date.now();
    // A backtracking engine never finishes this text (28 characters already took 1.4 s) and
    // would hold the event loop, so the plain requests next to it would never be answered.
    const evil = Array.from({ length: 3 }, () => send(gw, config, { body: chat('a'.repeat(100_000) + '!') }));
    const plain = Array.from({ length: 3 }, () => send(gw, config, { body: chat('aaaa') }));
    const [evilReplies, plainReplies] = await Promise.all([Promise.all(evil), Promise.all(plain)]);
    for (const res of evilReplies) {
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    }
    for (const res of plainReplies) {
      expect(res.status, res.text).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    }
    expect(counts(mocks)).to.deep.equal([3, 3]);
    expect(Date.now() - started, 'did not hang').to.be.below(8000);
  });

  describe('a pattern the engine cannot run is a 400 naming the path', () => {
    async function rejected(regex: string, message: string) {
      const res = await send(gw, routeBy(regex), { body: chat('hi') });
      expect(res.status).to.equal(400);
      expect(res.json.error).to.deep.include({ type: 'invalid_request_error', code: 'invalid_config', param: 'strategy.conditions.0.query.params.messages.0.content.$regex' });
      expect(res.json.error.message).to.equal(`config.strategy.conditions.0.query.params.messages.0.content.$regex: ${message}`);
      expect(counts(mocks)).to.deep.equal([0, 0]);
    }

    it('a backreference', async () => {
      await rejected('(a)\\1', 'must not use \\1: backreferences are not supported (patterns run on a linear-time engine, RE2 syntax)');
    });

    it('a lookahead', async () => {
      await rejected('^(?!admin)', 'must not use (?!: lookahead and lookbehind are not supported (patterns run on a linear-time engine, RE2 syntax)');
    });

    it('a pattern whose program would be huge', async () => {
      await rejected('(?:a{999}b){150}', 'must compile to at most 4000 instructions (this one: about 150601; use smaller counted repetitions {n})');
    });
  });
});
