/**
 * The cross-instance lock of cache.core when its state store fails (as Redis does while away):
 * misses go on at once, still coalesce on their own process, and are stored as before.
 */
import { expect } from 'chai';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { FailingStatePlugin } from '../../../fixtures/failing-state.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, eventually, post } from './harness.js';

describe('cache.core: the shared lock when the state store fails (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [...CACHE_PLUGINS, FailingStatePlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it('identical concurrent misses make one provider call, and the entry is stored', async () => {
    mock.next({ delayMs: 300 });
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: 'lock store down' }] };
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 4 }, () => post(gw.url, '/v1/chat/completions', body, cached(mock))));
    expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    expect(chatCalls(mock)).to.equal(1);
    expect(replies.map(cacheStatus).filter((s) => s === 'MISS')).to.have.length(1);
    expect(performance.now() - started).to.be.below(3000); // no wait for a lock that cannot be read
    await eventually(async () => cacheStatus(await post(gw.url, '/v1/chat/completions', body, cached(mock))) === 'HIT');
    expect(chatCalls(mock)).to.equal(1);
  });
});
