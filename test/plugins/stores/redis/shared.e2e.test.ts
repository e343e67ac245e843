/** Two gateway instances sharing one Redis (GW_REDIS_URL; skipped without it). */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, eventually, post } from '../../cache/core/harness.js';
import { deletePrefix, scanKeys, sharedRedisUrl, uniquePrefix } from './helpers.js';

describe('store.redis: two gateways share cache entries (end to end)', function () {
  const url = sharedRedisUrl();
  const prefix = uniquePrefix();
  let mock: MockOpenAI;
  let gwA: TestGateway;
  let gwB: TestGateway;
  let probe: Redis;

  const start = () => startGateway({
    plugins: [...CACHE_PLUGINS, { use: RedisStorePlugin, options: { keyPrefix: prefix } }],
    settings: { redisUrl: url },
  });

  before(async function () {
    if (!url) return this.skip();
    mock = await startMockOpenAI();
    [gwA, gwB] = await Promise.all([start(), start()]);
    probe = new Redis(url);
    probe.on('error', () => undefined);
  });

  after(async () => {
    if (!url) return;
    await Promise.all([gwA?.stop(), gwB?.stop(), mock?.close()]);
    probe?.disconnect();
    await deletePrefix(url, prefix);
  });

  it('an answer stored through one instance is a HIT on the other, plain and streamed', async () => {
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: 'shared across instances' }] };
    const first = await post(gwA.url, '/v1/chat/completions', body, cached(mock));
    expect(cacheStatus(first)).to.equal('MISS');
    await eventually(async () => (await scanKeys(probe, `${prefix}cache:`)).length === 1);
    const second = await post(gwB.url, '/v1/chat/completions', body, cached(mock));
    expect(cacheStatus(second)).to.equal('HIT');
    expect(second.json).to.deep.equal(first.json);
    const streamed = await post(gwB.url, '/v1/chat/completions', { ...body, stream: true }, cached(mock));
    expect(cacheStatus(streamed)).to.equal('HIT');
    expect(streamed.text.endsWith('data: [DONE]\n\n')).to.equal(true);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('keeps entries only under its key prefix, with the entry TTL', async () => {
    const keys = await scanKeys(probe, prefix);
    expect(keys.length).to.be.greaterThan(0);
    for (const key of keys) {
      expect(key.startsWith(`${prefix}cache:`)).to.equal(true);
      expect(await probe.ttl(key)).to.be.within(3500, 3600);
    }
  });

  it('reports healthy while Redis is reachable', async () => {
    const res = await fetch(gwA.url + '/health');
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).to.equal('ok');
    expect(body.checks.redis).to.equal('ok');
  });
});
