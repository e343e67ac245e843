/**
 * `GET /health`: every backing store's verdict by name; 200 `ok`, or 503 `degraded` while one is
 * down (a Redis that is not there, a probe that throws or hangs); back to 200 when it returns;
 * never a URL, host, port or credential in the answer. `/health/live` only says the process serves.
 */
import { expect } from 'chai';
import type { Plugin, PluginApi } from '../../host/index.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { onPostgres } from '../helpers/pg-schema.js';
import { rawRequest } from '../helpers/raw-http.js';
import { freePort, hasRedisServer, startRedisServer, type OwnRedis } from '../plugins/stores/redis/helpers.js';

/** The record store's check: the suite runs once on SQLite and once on PostgreSQL. */
const RECORDS = onPostgres() ? 'store.postgres' : 'store.sqlite';

const health = async (gw: TestGateway) => {
  const res = await fetch(`${gw.url}/health`);
  return { status: res.status, cacheControl: res.headers.get('cache-control'), text: await res.text() };
};

/** A plugin with probes of every kind: passing, failing, throwing, never answering. */
class ProbesPlugin implements Plugin {
  static readonly manifest = { id: 'test.probes', description: 'health probes for tests' };
  apply(api: PluginApi): void {
    api.registries.health.register('test.passing', () => true, api.id);
    api.registries.health.register('test.failing', async () => false, api.id);
    api.registries.health.register('test.throwing', () => {
      throw new Error('connect ECONNREFUSED postgres://admin:hunter2@db.internal:5432');
    }, api.id);
    api.registries.health.register('test.hanging', () => new Promise<boolean>(() => undefined), api.id);
  }
}

describe('GET /health', function () {
  this.timeout(30_000);
  let gw: TestGateway | undefined;
  let redis: OwnRedis | undefined;

  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
    await redis?.kill();
    redis = undefined;
  });

  it('answers 200 ok with each store by name, without a worker number outside a cluster', async () => {
    gw = await startGateway();
    const reply = await health(gw);
    expect(reply.status).to.equal(200);
    expect(reply.cacheControl).to.equal('no-store');
    expect(JSON.parse(reply.text)).to.deep.equal({ status: 'ok', checks: { [RECORDS]: 'ok' } });
  });

  it('answers 503 degraded naming Redis as down while it is unreachable, without its URL or password', async () => {
    const port = await freePort();
    gw = await startGateway({
      plugins: [{ use: 'store.redis', options: { readyWaitMs: 0 } }],
      settings: { redisUrl: `redis://gwuser:s3cret-pass@127.0.0.1:${port}/0` },
    });
    const reply = await health(gw);
    expect(reply.status).to.equal(503);
    expect(JSON.parse(reply.text)).to.deep.equal({ status: 'degraded', checks: { [RECORDS]: 'ok', redis: 'down' } });
    for (const secret of ['s3cret', 'gwuser', String(port), '127.0.0.1', 'redis://']) expect(reply.text).not.to.contain(secret);
  });

  it('recovers to 200 ok without a restart when Redis comes up, and says degraded again when it dies', async function () {
    if (!hasRedisServer()) return this.skip();
    const port = await freePort();
    gw = await startGateway({ plugins: [{ use: 'store.redis', options: { readyWaitMs: 0 } }], settings: { redisUrl: `redis://127.0.0.1:${port}` } });
    expect((await health(gw)).status).to.equal(503);
    redis = await startRedisServer(port);
    await until(async () => (await health(gw!)).status === 200, 'Redis to be seen again');
    expect(JSON.parse((await health(gw)).text)).to.deep.equal({ status: 'ok', checks: { [RECORDS]: 'ok', redis: 'ok' } });
    await redis.kill();
    redis = undefined;
    await until(async () => (await health(gw!)).status === 503, 'Redis to be seen gone');
  });

  it('answers /health/live 200 while a store is down (liveness must not restart replicas over a shared store)', async () => {
    gw = await startGateway({
      plugins: [{ use: 'store.redis', options: { readyWaitMs: 0 } }],
      settings: { redisUrl: `redis://127.0.0.1:${await freePort()}` },
    });
    expect((await health(gw)).status).to.equal(503);
    const res = await fetch(`${gw.url}/health/live`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(await res.json()).to.deep.equal({ status: 'ok' });
  });

  it('counts a probe that fails, throws or never answers as down, answers anyway, and keeps the error text to itself', async () => {
    gw = await startGateway({ plugins: [ProbesPlugin] });
    const [reply, other] = await Promise.all([
      health(gw),
      rawRequest(gw.url, 'GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n'),
    ]);
    expect(other.status).to.equal(401); // other requests are answered while a probe hangs
    expect(reply.status).to.equal(503);
    expect(JSON.parse(reply.text)).to.deep.equal({
      status: 'degraded',
      checks: { [RECORDS]: 'ok', 'test.passing': 'ok', 'test.failing': 'down', 'test.throwing': 'down', 'test.hanging': 'down' },
    });
    for (const leak of ['hunter2', 'postgres://', 'db.internal', 'ECONNREFUSED']) expect(reply.text).not.to.contain(leak);
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
