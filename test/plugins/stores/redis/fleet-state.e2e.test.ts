/**
 * State several instances must agree on, shared through one Redis (GW_REDIS_URL; skipped without
 * it): circuit breakers, usage-limit totals, rate-limit counters, and the coalescing of identical
 * cache misses. Real gateways on one data folder, mock providers as loopback servers.
 */
import { expect } from 'chai';
import { CHAT_BODY, postJson, TEST_API_KEY, type JsonReply, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { chatCalls, eventually } from '../../cache/core/harness.js';
import { sharedRedisUrl } from './helpers.js';
import { call, startFleet, within, type Fleet } from './fleet.js';

type Config = Record<string, unknown>;

const headersFor = (config: Config, extra: Record<string, string> = {}) =>
  ({ 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config), ...extra });
const chat = (gw: TestGateway, config: Config, extra: Record<string, string> = {}, content = 'hi'): Promise<JsonReply> =>
  postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content }] }, headersFor(config, extra));
const leaf = (mock: MockOpenAI, extra: Config = {}): Config => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });

describe('store.redis: state shared by a fleet (end to end)', function () {
  const url = sharedRedisUrl();
  let mock: MockOpenAI;
  let fleet: Fleet | undefined;

  before(async function () {
    if (!url) return this.skip();
    mock = await startMockOpenAI();
  });
  beforeEach(() => mock?.reset());
  afterEach(async () => {
    await fleet?.stop();
    fleet = undefined;
  });
  after(async () => {
    await mock?.close();
  });

  describe('circuit breaker', () => {
    const config = (mockUrl: MockOpenAI) => leaf(mockUrl, { cb_config: { failure_threshold: 3, cooldown_interval: 60_000 } });
    const expectOpen = (reply: JsonReply) => {
      expect(reply.status, reply.text).to.equal(503);
      expect(reply.json.error.code).to.equal('circuit_open');
    };

    // The message travels through Redis while A answers its client, so B's very next request may
    // still pass: B must be open within 1 s, and from then on call the provider no more.
    const openOn = async (gw: TestGateway) => {
      await within(1000, async () => (await chat(gw, config(mock))).status === 503);
      const calls = mock.requests.length;
      for (let i = 0; i < 3; i++) expectOpen(await chat(gw, config(mock)));
      expect(mock.requests).to.have.length(calls);
    };

    it('a circuit opened by failures seen on A is open on B within 1 s, with B calling the provider no more', async () => {
      fleet = await startFleet(2, { redisUrl: url! });
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      expect((await chat(b, config(mock))).status).to.equal(200); // B knows the target, closed
      mock.next({ status: 503 }, { status: 503 }, { status: 503 });
      for (let i = 0; i < 3; i++) expect((await chat(a, config(mock))).status).to.equal(503);
      expectOpen(await chat(a, config(mock)));
      await openOn(b);
    });

    it('failures on A and B add up to one threshold, and the circuit opens on both', async () => {
      fleet = await startFleet(2, { redisUrl: url! });
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      mock.next({ status: 503 }, { status: 503 }, { status: 503 });
      expect((await chat(a, config(mock))).status).to.equal(503);
      expect((await chat(b, config(mock))).status).to.equal(503);
      expect((await chat(a, config(mock))).status).to.equal(503); // the third failure of the fleet
      expect(mock.requests).to.have.length(3);
      expectOpen(await chat(a, config(mock)));
      await openOn(b);
    });

    it('a new instance started after the circuit opened learns it at its first failure', async () => {
      fleet = await startFleet(1, { redisUrl: url! });
      const a = fleet.gateways[0]!;
      mock.next({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
      for (let i = 0; i < 3; i++) await chat(a, config(mock));
      expectOpen(await chat(a, config(mock)));
      const b = await fleet.add();
      expect((await chat(b, config(mock))).status).to.equal(503); // its one failure: the shared state says open
      expectOpen(await chat(b, config(mock)));
      expect(mock.requests).to.have.length(4);
    });
  });

  it('usage counted on A and B adds up against one usage limit', async () => {
    fleet = await startFleet(1, { redisUrl: url! });
    const a = fleet.gateways[0]!;
    const metadata = { 'x-gw-metadata': JSON.stringify({ user: 'fleet-budget' }) };
    const probe = await chat(a, leaf(mock));
    const T = probe.json.usage.prompt_tokens + probe.json.usage.completion_tokens;
    const created = await call(a, 'POST', '/v1/policies/usage-limits', {
      conditions: [{ key: 'metadata.user', value: 'fleet-budget' }], group_by: [{ key: 'metadata.user' }], type: 'tokens', credit_limit: 2 * T - 1,
    });
    expect(created.status, created.text).to.equal(200);
    const b = await fleet.add(); // loads the policy at boot
    expect((await chat(a, leaf(mock), metadata)).status).to.equal(200);
    expect((await chat(b, leaf(mock), metadata)).status).to.equal(200);
    // Usage is added once the answer is written: both instances read the one total of both answers.
    const usageOn = async (gw: TestGateway) => (await call(gw, 'GET', `/v1/policies/usage-limits/${created.json.id}/usage?value=fleet-budget`)).json.usage;
    await eventually(async () => (await usageOn(a)) === 2 * T, 1000);
    expect(await usageOn(b)).to.equal(2 * T);
    const refused = await chat(b, leaf(mock), metadata);
    expect(refused.status).to.equal(429);
    expect(refused.json.error.message).to.include(`has used ${2 * T} of ${2 * T - 1} tokens`);
    expect((await chat(a, leaf(mock), metadata)).status).to.equal(429);
  });

  it('a 100-per-minute rate limit lets exactly 100 of 300 requests through, spread over 3 instances', async function () {
    this.timeout(60_000);
    // Counting is under test, not latency: on a loaded machine the default 200 ms budgets would let
    // checks fail open (by design) and pass extra requests.
    fleet = await startFleet(1, {
      redisUrl: url!,
      redis: { commandTimeoutMs: 5000 },
      plugins: [{ use: 'policy.rate-limits', options: { checkTimeoutMs: 5000 } }],
    });
    const created = await call(fleet.gateways[0]!, 'POST', '/v1/policies/rate-limits', {
      conditions: [{ key: 'metadata.user', value: 'fleet-rpm' }], group_by: [{ key: 'metadata.user' }], type: 'requests', unit: 'rpm', value: 100,
    });
    expect(created.status, created.text).to.equal(200);
    await fleet.add();
    await fleet.add();
    // All 300 inside one minute window: start at the top of the next minute when this one is nearly over.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    const metadata = { 'x-gw-metadata': JSON.stringify({ user: 'fleet-rpm' }) };
    const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => chat(fleet!.gateways[i % 3]!, leaf(mock), metadata)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(100);
    expect(statuses.filter((s) => s === 429)).to.have.length(200);
    expect(chatCalls(mock)).to.equal(100);
    for (const gw of fleet.gateways) expect((await chat(gw, leaf(mock), metadata)).status).to.equal(429);
  });

  describe('cache: identical misses across instances', () => {
    const cached = (mockUrl: MockOpenAI) => leaf(mockUrl, { cache: { mode: 'simple' } });

    it('six identical concurrent misses on two instances make one provider call; the others are hits', async () => {
      fleet = await startFleet(2, { redisUrl: url! });
      mock.next(...Array.from({ length: 6 }, () => ({ delayMs: 300 })));
      const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => chat(fleet!.gateways[i % 2]!, cached(mock), {}, 'coalesced across instances')));
      expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
      expect(chatCalls(mock)).to.equal(1);
      const statuses = replies.map((r) => r.headers.get('x-gw-cache-status'));
      expect(statuses.filter((s) => s === 'MISS')).to.have.length(1);
      expect(statuses.filter((s) => s === 'HIT')).to.have.length(5);
      for (const reply of replies) expect(reply.json).to.deep.equal(replies[0]!.json);
    });

    it('when the holder fails, the waiting instance calls the provider itself', async () => {
      fleet = await startFleet(2, { redisUrl: url! });
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      mock.next({ status: 500, delayMs: 300 });
      const first = chat(a, cached(mock), {}, 'holder fails');
      await eventually(async () => mock.requests.length === 1, 1000, 5);
      const second = await chat(b, cached(mock), {}, 'holder fails');
      expect((await first).status).to.equal(500);
      expect(second.status).to.equal(200);
      expect(second.headers.get('x-gw-cache-status')).to.equal('MISS');
      expect(chatCalls(mock)).to.equal(2);
    });

    it('a holder slower than the lock does not hold the others past coalesceLockMs', async () => {
      fleet = await startFleet(2, { redisUrl: url!, plugins: [{ use: 'cache.core', options: { coalesceLockMs: 300 } }] });
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      mock.next({ delayMs: 3000 });
      const slow = chat(a, cached(mock), {}, 'slow holder');
      await eventually(async () => mock.requests.length === 1, 1000, 5);
      const started = performance.now();
      const second = await chat(b, cached(mock), {}, 'slow holder');
      expect(second.status).to.equal(200);
      expect(performance.now() - started).to.be.below(2500); // did not wait for the 3 s holder
      expect(chatCalls(mock)).to.equal(2);
      expect((await slow).status).to.equal(200);
    });
  });
});
