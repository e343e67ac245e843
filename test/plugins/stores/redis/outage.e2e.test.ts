/**
 * Redis going away: a gateway on a private redis-server (spawned here, skipped when the binary is
 * missing). When it dies, requests go on as misses, quickly, never as errors; /health says
 * degraded; when it returns, the cache works again. Also: booting while Redis is unreachable.
 */
import { expect } from 'chai';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, eventually, post } from '../../cache/core/harness.js';
import { freePort, hasRedisServer, startRedisServer, type OwnRedis } from './helpers.js';

describe('store.redis: Redis going away (end to end)', function () {
  let mock: MockOpenAI;
  let redis: OwnRedis | undefined;
  let gw: TestGateway | undefined;

  const start = (url: string, readyWaitMs = 1000) => startGateway({
    plugins: [...CACHE_PLUGINS, { use: RedisStorePlugin, options: { readyWaitMs } }],
    settings: { redisUrl: url },
  });
  const health = async () => ((await (await fetch(gw!.url + '/health')).json()) as { status: string }).status;
  const chat = (content: string) => post(gw!.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content }] }, cached(mock));

  before(async function () {
    if (!hasRedisServer()) return this.skip();
    mock = await startMockOpenAI();
  });

  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
    await redis?.kill();
    redis = undefined;
  });

  after(async () => {
    await mock?.close();
  });

  it('answers misses without errors while Redis is down, and caches again once it is back', async () => {
    const port = await freePort();
    redis = await startRedisServer(port);
    gw = await start(redis.url);
    expect(cacheStatus(await chat('before the outage'))).to.equal('MISS');
    await eventually(async () => cacheStatus(await chat('before the outage')) === 'HIT');

    await redis.kill();
    await eventually(async () => (await health()) === 'degraded');
    mock.reset();
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      const reply = await chat('before the outage');
      expect(reply.status).to.equal(200);
      expect(reply.json.choices[0].message.content).to.equal('echo: before the outage');
      expect(cacheStatus(reply)).to.equal('MISS');
    }
    expect(performance.now() - started).to.be.below(3000); // no request waits for the dead Redis
    expect(chatCalls(mock)).to.equal(5);

    redis = await startRedisServer(port);
    await eventually(async () => (await health()) === 'ok', 5000, 50);
    expect(cacheStatus(await chat('after the outage'))).to.equal('MISS');
    await eventually(async () => cacheStatus(await chat('after the outage')) === 'HIT');
  });

  it('bounds each lookup by the command time-out when Redis stops answering', async () => {
    redis = await startRedisServer(await freePort());
    gw = await start(redis.url);
    await chat('a stalled redis');
    await eventually(async () => cacheStatus(await chat('a stalled redis')) === 'HIT');
    redis.pause();
    try {
      const started = performance.now();
      const reply = await chat('a stalled redis');
      const elapsed = performance.now() - started;
      expect(reply.status).to.equal(200);
      expect(cacheStatus(reply)).to.equal('MISS');
      expect(elapsed).to.be.within(150, 2000); // the 200 ms command time-out, then the provider
    } finally {
      redis.resume();
    }
  });

  it('boots with Redis unreachable and serves misses', async () => {
    const port = await freePort(); // nothing listens there
    const started = performance.now();
    gw = await start(`redis://127.0.0.1:${port}`, 200);
    expect(performance.now() - started).to.be.below(2000);
    expect(await health()).to.equal('degraded');
    for (let i = 0; i < 2; i++) {
      const reply = await chat('no redis at all');
      expect(reply.status).to.equal(200);
      expect(cacheStatus(reply)).to.equal('MISS');
    }
  });
});
