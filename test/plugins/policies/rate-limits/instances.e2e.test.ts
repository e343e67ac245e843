/**
 * Several gateway instances: two on one Redis hold one exact limit (run with GW_REDIS_URL, skipped
 * without), and a policy changed through one instance applies on another within refreshIntervalMs.
 * The instances share one record store (the second uses the first's data folder), as instances
 * behind one database do.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import sinon from 'sinon';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { deletePrefix, scanKeys, uniquePrefix } from '../../stores/redis/helpers.js';
import { api, BASE, chat, count, createPolicy, eventually, startLimitsGateway, statusesOf } from './harness.js';

const POLICY = { conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key: 'api_key' }], type: 'requests', unit: 'rpm', value: 50 };

describe('policy.rate-limits: two instances on one Redis', function () {
  const url = process.env['GW_REDIS_URL'] || undefined;
  const prefix = uniquePrefix();
  let mock: MockOpenAI;
  let gwA: TestGateway | undefined;
  let gwB: TestGateway | undefined;
  let clock: sinon.SinonFakeTimers | undefined;

  const start = (dataDir?: string) => startLimitsGateway({
    plugins: [{ use: RedisStorePlugin, options: { keyPrefix: prefix } }],
    env: { GW_REDIS_URL: url!, ...(dataDir ? { GW_DATA_DIR: dataDir } : {}) },
  });

  before(async function () {
    if (!url) return this.skip();
    mock = await startMockOpenAI();
  });
  after(async () => {
    clock?.restore();
    await gwB?.stop();
    await gwA?.stop();
    await mock?.close();
    if (url) await deletePrefix(url, prefix);
  });

  it('lets exactly 50 of 200 concurrent requests spread over both through a limit of 50', async () => {
    clock = sinon.useFakeTimers({ now: Date.parse('2025-01-08T10:20:30.000Z'), toFake: ['Date'] });
    gwA = await start();
    const id = await createPolicy(gwA, POLICY);
    gwB = await start(gwA.dataDir);
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(i % 2 ? gwB! : gwA!, mock)));
    const statuses = statusesOf(replies);
    expect(count(statuses, 200)).to.equal(50);
    expect(count(statuses, 429)).to.equal(150);
    expect(count(statusesOf(replies.filter((_, i) => i % 2 === 1)), 200)).to.be.greaterThan(0);
    expect(count(statusesOf(replies.filter((_, i) => i % 2 === 0)), 200)).to.be.greaterThan(0);

    const probe = new Redis(url!);
    probe.on('error', () => undefined);
    try {
      const keys = await scanKeys(probe, `${prefix}state:rl:${id}:`);
      expect(keys).to.have.length(1);
      expect(await probe.get(keys[0]!)).to.equal('50');
      // Window end (30 s away on the fake clock) plus a second of grace, counted from creation.
      expect(await probe.pttl(keys[0]!)).to.be.within(25_000, 31_000);
    } finally {
      probe.disconnect();
    }
  });
});

describe('policy.rate-limits: changes through another instance', () => {
  let mock: MockOpenAI;
  let gwA: TestGateway;
  let gwB: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gwA = await startLimitsGateway({ rateLimits: { refreshIntervalMs: 50 } });
    gwB = await startLimitsGateway({ rateLimits: { refreshIntervalMs: 50 }, env: { GW_DATA_DIR: gwA.dataDir } });
  });
  after(async () => {
    await gwB?.stop();
    await gwA?.stop();
    await mock?.close();
  });

  it('apply within refreshIntervalMs: a new policy, then its archiving', async () => {
    const id = await createPolicy(gwA, { ...POLICY, value: 1, conditions: [{ key: 'metadata.team', value: 'refresh' }] });
    const metadata = { team: 'refresh' };
    // Memory counters: each instance counts its own requests.
    await eventually(async () => (await chat(gwB, mock, { metadata })).headers.get('x-ratelimit-limit') === '1');
    expect((await chat(gwB, mock, { metadata })).status).to.equal(429);
    expect((await api(gwA, 'DELETE', `${BASE}/${id}`)).status).to.equal(200);
    await eventually(async () => (await chat(gwB, mock, { metadata })).status === 200);
  });
});
