/**
 * Agent servers are followed across instances: two gateways on one record store see each other's
 * writes, through the invalidation bus relayed by Redis (GW_REDIS_URL; within 1 s) or, without a
 * relay, at the periodic reload (option reloadIntervalMs).
 */
import { expect } from 'chai';
import { startA2AAgent, type A2AAgent } from '../../../fixtures/a2a-agent.js';
import { postJson, type TestGateway } from '../../../helpers/gateway.js';
import { sharedRedisUrl } from '../../stores/redis/helpers.js';
import { startFleet, within, type Fleet } from '../../stores/redis/fleet.js';
import { call, KEY_HEADERS, startAgentGateway } from './harness.js';

const send = (gw: TestGateway, ref: string, text: string) => postJson(gw.url, `/v1/agents/${ref}`, {
  jsonrpc: '2.0', id: 1, method: 'message/send',
  params: { message: { kind: 'message', messageId: `m-${Date.now()}`, role: 'user', parts: [{ kind: 'text', text }] } },
}, { 'content-type': 'application/json', ...KEY_HEADERS });

describe('agents.agent-servers: several instances', () => {
  let agent: A2AAgent;

  before(async () => {
    agent = await startA2AAgent();
  });
  after(async () => {
    await agent?.close();
  });
  beforeEach(() => agent.reset());

  describe('on one Redis', function () {
    const url = sharedRedisUrl();
    let fleet: Fleet;

    before(async function () {
      if (!url) return this.skip();
      fleet = await startFleet(2, { redisUrl: url });
    });
    after(async () => {
      await fleet?.stop();
    });

    it('a server made, changed and deleted on A is used, changed and gone on B within 1 s', async () => {
      const [a, b] = fleet.gateways as [TestGateway, TestGateway];
      const made = await call(a, 'POST', '/v1/agent-servers', { name: 'Fleet', slug: 'fleet-agent', url: agent.url, auth: { type: 'bearer', token: 'fleet-old' } });
      expect(made.status, made.text).to.equal(200);
      await within(1000, async () => (await send(b, 'fleet-agent', 'hi')).status === 200);
      expect(agent.calls.at(-1)!.headers['authorization']).to.equal('Bearer fleet-old');
      expect((await call(a, 'PUT', '/v1/agent-servers/fleet-agent', { auth: { type: 'bearer', token: 'fleet-new' } })).status).to.equal(200);
      await within(1000, async () => {
        await send(b, 'fleet-agent', 'hi');
        return agent.calls.at(-1)!.headers['authorization'] === 'Bearer fleet-new';
      });
      expect((await call(a, 'DELETE', '/v1/agent-servers/fleet-agent')).status).to.equal(200);
      await within(1000, async () => (await send(b, 'fleet-agent', 'hi')).status === 404);
    });
  });

  it('without a relay, at the periodic reload', async () => {
    const a = await startAgentGateway({ options: { reloadIntervalMs: 50 } });
    const b = await startAgentGateway({ options: { reloadIntervalMs: 50 }, dataDir: a.dataDir });
    try {
      const made = await call(a, 'POST', '/v1/agent-servers', { name: 'Shared', slug: 'shared', url: agent.url });
      expect(made.status).to.equal(200);
      await within(2000, async () => (await call(b, 'GET', '/v1/agent-servers/shared')).status === 200);
      const answer = await send(b, 'shared', 'from b');
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.json.result.parts[0].text).to.equal('echo: from b');
    } finally {
      await b.stop();
      await a.stop();
    }
  });
});
