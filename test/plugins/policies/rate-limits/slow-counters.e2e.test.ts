/**
 * Counters that fail or answer late: a check that lets its request through unchecked (failOpen)
 * is counted (gw_limit_checks_skipped_total) and logged at warn, once per interval, never silently;
 * `checkTimeoutMs` bounds how long a check waits. Redis is real: one that accepts and never
 * answers (always run), and a private redis-server stopped with SIGSTOP (when the binary exists).
 */
import { expect } from 'chai';
import { createGateway } from '../../../../host/index.js';
import RateLimitsPlugin from '../../../../plugins/policies/rate-limits/index.js';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startSilentRedis, type SilentRedis } from '../../../fixtures/silent-redis.js';
import { TEST_API_KEY } from '../../../helpers/gateway.js';
import { metricValue, startLoggedGateway, type LoggedGateway } from '../../../helpers/logged-gateway.js';
import { freePort, hasRedisServer, startRedisServer, type OwnRedis } from '../../stores/redis/helpers.js';
import { chat, createPolicy, statusesOf, TestPrincipalPlugin } from './harness.js';

const SKIPPED = 'gw_limit_checks_skipped_total{check="rate_limits"}';
const WARNING = 'rate-limit check skipped: its counters failed or did not answer in time, requests pass unchecked meanwhile';

const policy = (value: number) => ({ conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value });

function start(redisUrl: string, rateLimits: Record<string, unknown>, redis: Record<string, unknown> = {}): Promise<LoggedGateway> {
  return startLoggedGateway([
    TestPrincipalPlugin,
    { use: RateLimitsPlugin, options: rateLimits },
    { use: RedisStorePlugin, options: { readyWaitMs: 0, ...redis } },
  ], { GW_REDIS_URL: redisUrl });
}

describe('policy.rate-limits: counters that fail or answer late', function () {
  let mock: MockOpenAI;
  let gw: LoggedGateway | undefined;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock.close();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  describe('a Redis that accepts and never answers', () => {
    let silent: SilentRedis;
    before(async () => {
      silent = await startSilentRedis();
    });
    after(async () => {
      await silent.close();
    });

    it('lets requests through, counts each skipped check and warns once for the burst', async () => {
      gw = await start(silent.url, {});
      await createPolicy(gw, policy(1));
      const replies = [];
      for (let i = 0; i < 4; i++) replies.push(await chat(gw, mock));
      expect(statusesOf(replies)).to.deep.equal([200, 200, 200, 200]);
      expect(await metricValue(gw.url, SKIPPED)).to.equal(4);
      const warnings = gw.lines.filter((l) => l.msg === WARNING);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.include({ level: 40, skipped: 1, skippedTotal: 1, timedOut: false });
      expect(JSON.stringify(gw.lines)).to.not.contain(TEST_API_KEY);
    });

    it('counts nothing for requests no policy selects', async () => {
      gw = await start(silent.url, {});
      await createPolicy(gw, policy(1));
      const reply = await chat(gw, mock, { path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'x' } });
      expect(reply.status).to.equal(200);
      expect(await metricValue(gw.url, SKIPPED)).to.equal(0);
    });
  });

  describe('a real Redis that stops answering', function () {
    let redis: OwnRedis | undefined;
    before(async function () {
      if (!hasRedisServer()) return this.skip();
      redis = await startRedisServer(await freePort());
    });
    after(async () => {
      redis?.resume();
      await redis?.kill();
    });
    afterEach(() => {
      redis?.resume();
    });

    it('gives up after checkTimeoutMs (not the client\'s 5 s command time-out), and counts and logs the skips', async () => {
      gw = await start(redis!.url + '/13', { checkTimeoutMs: 50 }, { commandTimeoutMs: 5000, readyWaitMs: 2000 });
      await createPolicy(gw, policy(100));
      expect((await chat(gw, mock)).status, 'counted normally while Redis answers').to.equal(200);
      redis!.pause();
      const started = performance.now();
      const replies = await Promise.all([chat(gw, mock), chat(gw, mock), chat(gw, mock)]);
      const elapsed = performance.now() - started;
      expect(statusesOf(replies)).to.deep.equal([200, 200, 200]);
      expect(elapsed, 'did not wait for the Redis client\'s own time-out').to.be.below(2500);
      expect(await metricValue(gw.url, SKIPPED)).to.equal(3);
      const warnings = gw.lines.filter((l) => l.msg === WARNING);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.include({ timedOut: true });
    });

    it('answers 503 in the envelope with failOpen: false, quickly, and counts no skip', async () => {
      gw = await start(redis!.url + '/13', { checkTimeoutMs: 50, failOpen: false }, { commandTimeoutMs: 5000, readyWaitMs: 2000 });
      await createPolicy(gw, policy(100));
      redis!.pause();
      const reply = await chat(gw, mock);
      expect(reply.status).to.equal(503);
      expect(reply.json.error).to.include({ message: 'rate-limit counters are unavailable', code: 'unavailable' });
      expect(await metricValue(gw.url, SKIPPED)).to.equal(0);
    });
  });

  it('refuses a checkTimeoutMs outside 1 to 10000, or a timer past 2^31 - 1 ms, at boot, naming the option', async () => {
    for (const [name, value, rule] of [['checkTimeoutMs', 0, '>= 1'], ['checkTimeoutMs', 10_001, '<= 10000'], ['refreshIntervalMs', 2 ** 31, '<= 2147483647']] as const) {
      const error = await createGateway({
        composition: { plugins: [{ use: RateLimitsPlugin, options: { [name]: value } }] },
        env: { GW_DATA_DIR: '/nonexistent-unused', GW_LOG_LEVEL: 'silent' },
      }).then(() => undefined, (e: unknown) => e);
      expect(String(error), `${name} ${value}`).to.contain(`${name}: must be ${rule}`);
    }
  });
});
