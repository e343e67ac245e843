/**
 * A fleet whose Redis goes away and comes back: two gateways on one data folder and a private
 * redis-server (spawned here; skipped when the binary is missing), killed, paused and restarted on
 * the same port. Nothing fails or stalls while it is away (limits fail open, breakers keep their
 * own view, caches expire as before), and when it returns the relay subscribes again and every
 * instance drops what it kept, so changes made meanwhile show without waiting for cache lifetimes.
 */
import { expect } from 'chai';
import { CHAT_BODY, postJson, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { freePort, hasRedisServer, startRedisServer, type OwnRedis } from './helpers.js';
import { call, startFleet, within, type Fleet } from './fleet.js';

const KEY_CACHE_MS = 1500;

describe('store.redis: a fleet while Redis is away and after it returns (end to end)', function () {
  this.timeout(30_000);
  let mock: MockOpenAI;
  let redis: OwnRedis | undefined;
  let fleet: Fleet | undefined;
  let a: TestGateway;
  let b: TestGateway;

  const direct = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });
  const chat = (gw: TestGateway, headers: Record<string, string> = {}): Promise<JsonReply> =>
    postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': direct(), ...headers });
  /**
   * Waits until B has received every change A published so far: one channel keeps order, so once a
   * later change (a key deleted on A) shows on B, the earlier ones have arrived too.
   */
  const messagesArrived = async () => {
    const marker = await call(a, 'POST', '/v1/api-keys', { name: 'marker', type: 'organisation-service' });
    expect((await chat(b, { 'x-gw-api-key': marker.json.key })).status).to.equal(200);
    expect((await call(a, 'DELETE', `/v1/api-keys/${marker.json.id}`)).status).to.equal(200);
    await within(1000, async () => (await chat(b, { 'x-gw-api-key': marker.json.key })).status === 401);
  };
  const health = async (gw: TestGateway) => ((await (await fetch(gw.url + '/health')).json()) as { status: string }).status;

  before(async function () {
    if (!hasRedisServer()) return this.skip();
    mock = await startMockOpenAI();
  });

  beforeEach(async function () {
    if (!mock) return this.skip();
    mock.reset();
    redis = await startRedisServer(await freePort());
    // Short key verdicts, to show the fallback while no message can come; every other cache keeps its default.
    fleet = await startFleet(2, { redisUrl: redis.url, plugins: [{ use: 'auth.api-key', options: { cacheTtlMs: KEY_CACHE_MS } }] });
    [a, b] = fleet.gateways as [TestGateway, TestGateway];
  });

  afterEach(async () => {
    await fleet?.stop();
    fleet = undefined;
    await redis?.kill();
    redis = undefined;
  });

  after(async () => {
    await mock?.close();
  });

  it('keeps serving while Redis is down: limits fail open, keys fall back to their cache lifetime, breakers to their own view', async () => {
    const limited = { 'x-gw-metadata': JSON.stringify({ user: 'outage' }) };
    expect((await call(a, 'POST', '/v1/policies/rate-limits', {
      conditions: [{ key: 'metadata.user', value: 'outage' }], group_by: [{ key: 'metadata.user' }], type: 'requests', unit: 'rph', value: 1,
    })).status).to.equal(200);
    const created = await call(a, 'POST', '/v1/api-keys', { name: 'outage', type: 'organisation-service' });
    const key = created.json.key as string;
    expect((await chat(b, { 'x-gw-api-key': key })).status).to.equal(200);

    await redis!.kill();
    await within(5000, async () => (await health(a)) === 'degraded' && (await health(b)) === 'degraded');

    // Rate limit (failOpen): the counters are away, so requests pass.
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect((await chat(b, limited)).status).to.equal(200);
    // Breaker: this instance's own count opens the circuit.
    const breaker = direct({ cb_config: { failure_threshold: 2, cooldown_interval: 60_000 } });
    mock.next({ status: 503 }, { status: 503 });
    expect((await chat(a, { 'x-gw-config': breaker })).status).to.equal(503);
    expect((await chat(a, { 'x-gw-config': breaker })).status).to.equal(503);
    const open = await chat(a, { 'x-gw-config': breaker });
    expect(open.json.error.code).to.equal('circuit_open');
    expect(performance.now() - started).to.be.below(5000); // nothing waited for the dead Redis

    // A key deleted on A: no message can reach B, which refuses it once its cached verdict expires.
    expect((await call(a, 'DELETE', `/v1/api-keys/${created.json.id}`)).status).to.equal(200);
    expect((await chat(a, { 'x-gw-api-key': key })).status).to.equal(401);
    await within(KEY_CACHE_MS + 1000, async () => (await chat(b, { 'x-gw-api-key': key })).status === 401);
  });

  it('after Redis returns, B drops what it kept (a config changed meanwhile shows at once) and follows changes again', async () => {
    const mockB = await startMockOpenAI();
    try {
      const headers = { 'x-gw-config': 'outage-config', authorization: 'Bearer sk-client' };
      const created = await call(a, 'POST', '/v1/configs', { slug: 'outage-config', config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
      expect(created.status, created.text).to.equal(200);
      await messagesArrived();
      expect((await chat(b, headers)).status).to.equal(200); // cached on B for 30 s

      await redis!.kill();
      await within(5000, async () => (await health(b)) === 'degraded');
      expect((await call(a, 'PUT', `/v1/configs/${created.json.id}`, { config: { provider: 'openai', custom_host: `${mockB.url}/v1` } })).status).to.equal(200);
      expect((await chat(b, headers)).status).to.equal(200);
      expect(mockB.requests).to.have.length(0); // B still serves what it cached: the message was lost

      redis = await startRedisServer(redis!.port);
      // Reconnects are tried at most every 2 s; then B subscribes again and drops its caches.
      await within(5000, async () => (await chat(b, headers)).status === 200 && mockB.requests.length > 0);

      // And live messages flow again: a key deleted on A is refused on B within 1 s.
      const key = await call(a, 'POST', '/v1/api-keys', { name: 'after', type: 'organisation-service' });
      await within(1000, async () => (await chat(b, { 'x-gw-api-key': key.json.key })).status === 200);
      await within(3000, async () => (await health(a)) === 'ok' && (await health(b)) === 'ok');
      expect((await call(a, 'DELETE', `/v1/api-keys/${key.json.id}`)).status).to.equal(200);
      await within(1000, async () => (await chat(b, { 'x-gw-api-key': key.json.key })).status === 401);
    } finally {
      await mockB.close();
    }
  });

  it('a Redis that stops answering stalls no write and no request', async () => {
    redis!.pause();
    try {
      const started = performance.now();
      const created = await call(a, 'POST', '/v1/configs', { slug: 'stalled', config: { provider: 'openai', custom_host: `${mock.url}/v1` } });
      expect(created.status, created.text).to.equal(200);
      const reply = await chat(b, { 'x-gw-config': 'stalled', authorization: 'Bearer sk-client' });
      expect(reply.status, reply.text).to.equal(200);
      expect(performance.now() - started).to.be.below(5000);
    } finally {
      redis!.resume();
    }
  });
});
