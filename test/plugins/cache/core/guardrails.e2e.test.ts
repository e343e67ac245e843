/**
 * The cache with the real guardrail runner (guardrails.runner + default.contains). Output guardrails run after the cache wrapper, on
 * misses and hits alike, so a cache never lets an answer past a deny guardrail.
 */
import { expect } from 'chai';
import GuardrailRunner from '../../../../plugins/guardrails/runner/index.js';
import ContainsCheck from '../../../../guardrails/contains/index.js';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, post, type Config } from './harness.js';

/** Denies an answer that contains "forbidden" (the mock echoes the question). */
const DENY_FORBIDDEN = [{ id: 'no-forbidden', deny: true, 'default.contains': { words: ['forbidden'], operator: 'none' } }];

describe('cache with the guardrail runner (end to end)', function () {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const ask = (content: string, config: Config, stream = false) =>
    post(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content }], ...(stream ? { stream: true } : {}) }, config);

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [...CACHE_PLUGINS, GuardrailRunner, ContainsCheck] });
  });

  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  beforeEach(() => mock?.reset());

  it('never stores an answer a deny guardrail refused', async () => {
    const config = cached(mock, { mode: 'simple' }, { output_guardrails: DENY_FORBIDDEN });
    const first = await ask('say forbidden words', config);
    expect(first.status).to.equal(446);
    expect(cacheStatus(first)).to.equal('MISS');
    const second = await ask('say forbidden words', config);
    expect(second.status).to.equal(446);
    expect(cacheStatus(second)).to.equal('MISS');
    expect(chatCalls(mock)).to.equal(2);
  });

  it('runs the guardrails on a hit: a stored answer is denied for a config that forbids it', async () => {
    const stored = await ask('another forbidden question', cached(mock));
    expect(stored.status).to.equal(200);
    const denied = await ask('another forbidden question', cached(mock, { mode: 'simple' }, { output_guardrails: DENY_FORBIDDEN }));
    expect(cacheStatus(denied)).to.equal('HIT');
    expect(denied.status).to.equal(446);
    expect(denied.json.hook_results).to.be.an('object');
    expect(chatCalls(mock)).to.equal(1);
  });

  it('stores a streamed answer the guardrails passed, once they released it', async () => {
    const config = cached(mock, { mode: 'simple' }, { output_guardrails: DENY_FORBIDDEN });
    const streamed = await ask('a harmless question', config, true);
    expect(streamed.status).to.equal(200);
    expect(streamed.text.endsWith('data: [DONE]\n\n')).to.equal(true);
    const hit = await ask('a harmless question', config);
    expect(cacheStatus(hit)).to.equal('HIT');
    expect(hit.json.choices[0].message.content).to.equal('echo: a harmless question');
    expect(chatCalls(mock)).to.equal(1);
  });
});
