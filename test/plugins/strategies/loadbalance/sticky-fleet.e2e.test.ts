/**
 * Sticky load balancing across a fleet: two real gateways sharing one Redis (GW_REDIS_URL; skipped
 * without it) keep one choice per field values; the choice expires after `ttl` on every instance;
 * a circuit opened on one instance makes the other re-choose, and both keep the new target.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { sharedRedisUrl } from '../../stores/redis/helpers.js';
import { startFleet, within, type Fleet } from '../../stores/redis/fleet.js';
import { closeAll, counts, leaf, send, startMocks } from '../fallback/harness.js';

const servedIndex = (reply: { headers: Headers }) => reply.headers.get('x-gw-last-used-option-index');

describe('strategy.loadbalance: sticky across a fleet on Redis (end to end)', function () {
  const url = sharedRedisUrl();
  let mocks: MockOpenAI[];
  let fleet: Fleet;
  let a: TestGateway;
  let b: TestGateway;
  const config = (ttl: number, cb?: Record<string, unknown>) => ({
    strategy: { mode: 'loadbalance', sticky: { enabled: true, hash_fields: ['metadata.user', 'headers.x-tenant'], ttl } },
    targets: [leaf(mocks[0]!, cb ? { cb_config: cb } : {}), leaf(mocks[1]!, cb ? { cb_config: cb } : {})],
  });

  before(async function () {
    if (!url) return this.skip();
    mocks = await startMocks(2);
    fleet = await startFleet(2, { redisUrl: url });
    [a, b] = fleet.gateways as [TestGateway, TestGateway];
  });
  afterEach(() => {
    sinon.restore();
    mocks?.forEach((m) => m.reset());
  });
  after(async () => {
    await fleet?.stop();
    if (mocks) await closeAll(mocks);
  });

  it('a choice made on A is kept on B, per field values', async () => {
    const random = sinon.stub(Math, 'random');
    const who = { metadata: { user: 'ada' }, headers: { 'x-tenant': 't1' } };
    random.returns(0.9);
    expect(servedIndex(await send(a, config(60), who))).to.equal('config.targets[1]');
    random.returns(0.1);
    for (let i = 0; i < 3; i++) {
      expect(servedIndex(await send(b, config(60), who))).to.equal('config.targets[1]');
      expect(servedIndex(await send(a, config(60), who))).to.equal('config.targets[1]');
    }
    // Another tenant of the same user is another key.
    expect(servedIndex(await send(b, config(60), { ...who, headers: { 'x-tenant': 't2' } }))).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([1, 7]);
  });

  it('the choice expires after ttl on every instance, and the next one is shared again', async function () {
    this.timeout(10_000);
    const random = sinon.stub(Math, 'random');
    const who = { metadata: { user: 'bob' }, headers: { 'x-tenant': 't1' } };
    random.returns(0.9);
    expect(servedIndex(await send(a, config(1), who))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(b, config(1), who))).to.equal('config.targets[1]');
    await new Promise((r) => setTimeout(r, 1100));
    expect(servedIndex(await send(b, config(1), who))).to.equal('config.targets[0]');
    random.returns(0.9);
    expect(servedIndex(await send(a, config(1), who))).to.equal('config.targets[0]');
  });

  it('a circuit opened on A moves the user on B too, and both keep the new target', async () => {
    const random = sinon.stub(Math, 'random');
    const cb = { failure_threshold: 1, cooldown_interval: 60_000 };
    const who = { metadata: { user: 'cy' }, headers: { 'x-tenant': 't1' } };
    random.returns(0.1);
    expect(servedIndex(await send(a, config(60, cb), who))).to.equal('config.targets[0]');
    mocks[0]!.next({ status: 503 });
    expect((await send(a, config(60, cb), who)).status).to.equal(503);
    // B hears of the open circuit through Redis; until then it may still call targets[0].
    await within(1000, async () => servedIndex(await send(b, config(60, cb), who)) === 'config.targets[1]');
    const calls = counts(mocks);
    random.returns(0.1);
    for (let i = 0; i < 3; i++) {
      expect(servedIndex(await send(a, config(60, cb), who))).to.equal('config.targets[1]');
      expect(servedIndex(await send(b, config(60, cb), who))).to.equal('config.targets[1]');
    }
    expect(counts(mocks)).to.deep.equal([calls[0], calls[1]! + 6]);
  });
});
