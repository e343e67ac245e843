/**
 * agents.mcp-servers: two gateways on one store. A server registered, changed or deleted on one is
 * seen by the other: at its periodic reload, or at once through the invalidation bus relayed by
 * Redis (GW_REDIS_URL; that part is skipped without it).
 */
import { expect } from 'chai';
import RedisStorePlugin from '../../../../plugins/stores/redis/index.js';
import type { McpServers } from '../../../../plugins/agents/mcp-servers/contract.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { sharedRedisUrl, uniquePrefix } from '../../stores/redis/helpers.js';
import { call, principal, registryOf, startRegistry } from './harness.js';

const URL = 'https://mcp.example.com/mcp';
const caller = principal();

async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tokenOf = async (registry: McpServers, slug: string) =>
  (await registry.upstreamHeaders(registry.find(slug, caller)!, caller, AbortSignal.timeout(1000)))['authorization'];

function followsChanges(name: string, start: () => Promise<[TestGateway, TestGateway]>, withinMs: number) {
  describe(name, () => {
    let a: TestGateway;
    let b: TestGateway;

    before(async function () {
      const started = await start().catch((e: Error) => (e.message === 'skip' ? undefined : Promise.reject(e)));
      if (!started) return this.skip();
      [a, b] = started;
    });
    after(async () => {
      await b?.stop();
      await a?.stop();
    });

    it('a server registered on A is found on B', async () => {
      const created = await call(a, 'POST', '/v1/mcp-servers', { slug: 'shared', url: URL, auth: { type: 'bearer', token: 'first-token-0000000' } });
      expect(created.status, created.text).to.equal(200);
      await within(withinMs, () => registryOf(b).find('shared', caller) !== undefined);
      expect(registryOf(b).byId(created.json.id)).to.deep.include({ slug: 'shared', revision: 1, authType: 'bearer' });
      expect(await tokenOf(registryOf(b), 'shared')).to.equal('Bearer first-token-0000000');
      expect((await call(b, 'GET', '/v1/mcp-servers/shared')).json.auth.token).to.equal('********0000');
    });

    it('a change on A is used by B', async () => {
      const updated = await call(a, 'PUT', '/v1/mcp-servers/shared', { auth: { type: 'bearer', token: 'second-token-000000' }, denied_tools: ['drop'] });
      expect(updated.status, updated.text).to.equal(200);
      await within(withinMs, () => registryOf(b).find('shared', caller)?.revision === 2);
      expect(registryOf(b).find('shared', caller)!.deniedTools).to.deep.equal(['drop']);
      expect(await tokenOf(registryOf(b), 'shared')).to.equal('Bearer second-token-000000');
      // B writes on top of A's change (its revision is current): no conflict.
      expect((await call(b, 'PUT', '/v1/mcp-servers/shared', { name: 'Renamed on B' })).status).to.equal(200);
      await within(withinMs, () => registryOf(a).find('shared', caller)?.name === 'Renamed on B');
    });

    it('a server deleted on A is gone on B', async () => {
      expect((await call(a, 'DELETE', '/v1/mcp-servers/shared')).status).to.equal(200);
      await within(withinMs, () => registryOf(b).find('shared', caller) === undefined);
      expect((await call(b, 'GET', '/v1/mcp-servers/shared')).status).to.equal(404);
    });
  });
}

describe('agents.mcp-servers: several instances on one store', () => {
  followsChanges('periodic reload (no relay)', async () => {
    const a = await startRegistry({ options: { reloadIntervalMs: 100 } });
    const b = await startRegistry({ dataDir: a.dataDir, options: { reloadIntervalMs: 100 } });
    return [a, b];
  }, 2000);

  followsChanges('the invalidation bus over Redis (periodic reload off)', async () => {
    const redisUrl = sharedRedisUrl();
    if (!redisUrl) throw new Error('skip');
    const redis = { use: RedisStorePlugin, options: { keyPrefix: uniquePrefix() } };
    const a = await startRegistry({ redisUrl, plugins: [redis], options: { reloadIntervalMs: 0 } });
    const b = await startRegistry({ redisUrl, dataDir: a.dataDir, plugins: [redis], options: { reloadIntervalMs: 0 } });
    return [a, b];
  }, 1000);
});

describe('agents.mcp-servers: concurrent writers', () => {
  let a: TestGateway;
  let b: TestGateway;

  before(async () => {
    // No relay and no periodic reload: B keeps a stale copy until a write of its own fails.
    a = await startRegistry({ options: { reloadIntervalMs: 0 } });
    b = await startRegistry({ dataDir: a.dataDir, options: { reloadIntervalMs: 0 } });
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('a write on a stale copy is refused as a conflict, and the copy is reloaded', async () => {
    expect((await call(a, 'POST', '/v1/mcp-servers', { slug: 'raced', url: URL })).status).to.equal(200);
    // Without a relay or a reload, B does not know of it.
    expect(registryOf(b).find('raced', caller)).to.equal(undefined);
    // A gateway started now reads it, then goes stale when A changes it.
    const late = await startRegistry({ dataDir: a.dataDir, options: { reloadIntervalMs: 0 } });
    try {
      expect((await call(a, 'PUT', '/v1/mcp-servers/raced', { name: 'by A' })).status).to.equal(200);
      const stale = await call(late, 'PUT', '/v1/mcp-servers/raced', { name: 'by late' });
      expect(stale.status).to.equal(400);
      expect(stale.json.error).to.deep.include({ code: 'conflict', message: 'MCP server "raced" was changed or deleted meanwhile: read it again' });
      expect(registryOf(late).find('raced', caller)!.name).to.equal('by A');
      expect((await call(late, 'PUT', '/v1/mcp-servers/raced', { name: 'by late' })).status).to.equal(200);
    } finally {
      await late.stop();
    }
  });
});
