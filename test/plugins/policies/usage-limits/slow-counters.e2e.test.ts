/**
 * Usage limits on counters that fail or answer late, as for rate limits: the request passes
 * (failOpen), the skip is counted as check="usage_limits" and logged at warn; or 503 when closed.
 */
import { expect } from 'chai';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import UsageLimitsPlugin from '../../../../plugins/policies/usage-limits/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startSilentRedis, type SilentRedis } from '../../../fixtures/silent-redis.js';
import { CHAT_BODY, configHeaders, postJson, TEST_API_KEY } from '../../../helpers/gateway.js';
import { metricValue, startLoggedGateway, type LoggedGateway } from '../../../helpers/logged-gateway.js';

const SKIPPED = 'gw_limit_checks_skipped_total{check="usage_limits"}';
const POLICY = {
  conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key: 'api_key' }], type: 'tokens', credit_limit: 1_000_000,
};

describe('policy.usage-limits: counters that fail', () => {
  let mock: MockOpenAI;
  let silent: SilentRedis;
  let gw: LoggedGateway | undefined;

  before(async () => {
    mock = await startMockOpenAI();
    silent = await startSilentRedis();
  });
  after(async () => {
    await silent.close();
    await mock.close();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  const start = (options: Record<string, unknown>) => startLoggedGateway([
    { use: UsageLimitsPlugin, options },
    { use: RedisStorePlugin, options: { readyWaitMs: 0 } },
  ], { GW_REDIS_URL: silent.url });
  const leaf = () => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1` });
  const chat = () => postJson(gw!.url, '/v1/chat/completions', CHAT_BODY, configHeaders(leaf()));
  const createPolicy = async () => {
    const reply = await postJson(gw!.url, '/v1/policies/usage-limits', POLICY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY });
    expect(reply.status, reply.text).to.equal(200);
  };

  it('lets requests through, counts each skipped check and warns once', async () => {
    gw = await start({});
    await createPolicy();
    expect((await chat()).status).to.equal(200);
    expect((await chat()).status).to.equal(200);
    expect(await metricValue(gw.url, SKIPPED)).to.equal(2);
    const warnings = gw.lines.filter((l) => String(l.msg).startsWith('usage-limit check skipped'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.include({ level: 40, skippedTotal: 1 });
  });

  it('answers 503 with failOpen: false and counts no skip', async () => {
    gw = await start({ failOpen: false, checkTimeoutMs: 50 });
    await createPolicy();
    const reply = await chat();
    expect(reply.status).to.equal(503);
    expect(reply.json.error).to.include({ message: 'usage-limit counters are unavailable', code: 'unavailable' });
    expect(await metricValue(gw.url, SKIPPED)).to.equal(0);
  });
});
