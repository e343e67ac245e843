/**
 * Issue 18 end to end: THREE real gateway processes (`node dist/host/main.js`) on one PostgreSQL
 * schema of their own and one Redis (a key prefix of their own), one GW_SECRET_KEY and bootstrap
 * key, and a mock provider. Skipped, saying why, without GW_DATABASE_URL or GW_REDIS_URL.
 * Batch leases are shortened (TTL 3 s, heartbeat and scan 500 ms) so the kill -9 take-over fits.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, jsonReply, postJson, TEST_API_KEY, type JsonReply } from '../helpers/gateway.js';
import { spawnMain, type MainProcess } from '../helpers/main-process.js';
import { freshSchema, onPostgres, testDatabaseUrl, type TestSchema } from '../helpers/pg-schema.js';
import { chatLines, form, parseJsonl } from '../plugins/features/files/helpers.js';
import { deletePrefix, sharedRedisUrl, uniquePrefix } from '../plugins/stores/redis/helpers.js';

const LINES = 60;

describe('fleet: three gateway processes on one PostgreSQL and one Redis', function () {
  this.timeout(60_000);
  const databaseUrl = testDatabaseUrl();
  const redisUrl = sharedRedisUrl();
  let schema: TestSchema | undefined;
  let folder: string;
  let prefix: string;
  let mock: MockOpenAI;
  let gws: MainProcess[] = [];

  const request = async (gw: MainProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonReply> => {
    const res = await fetch(gw.url + path, {
      method,
      headers: { 'x-gw-api-key': TEST_API_KEY, ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    return jsonReply(res);
  };
  const leaf = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });
  const chat = (gw: MainProcess, headers: Record<string, string>) =>
    postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, ...headers });
  const withConfig = (config: Record<string, unknown>, extra: Record<string, string> = {}) => ({ 'x-gw-config': JSON.stringify(config), ...extra });
  const within = async (limitMs: number, check: () => Promise<boolean>) => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  before(async function () {
    if (!databaseUrl) {
      console.log('      (skipped: the fleet test needs GW_DATABASE_URL, a PostgreSQL it may make a schema in)');
      return this.skip();
    }
    if (onPostgres()) return this.skip(); // its gateways are on PostgreSQL on every pass: once is enough
    if (!redisUrl) {
      console.log('      (skipped: the fleet test needs GW_REDIS_URL)');
      return this.skip();
    }
    mock = await startMockOpenAI();
    schema = await freshSchema(databaseUrl);
    folder = await mkdtemp(join(tmpdir(), 'gw-fleet-e2e-'));
    prefix = uniquePrefix();
    const gatewayFile = join(folder, 'gateway.json');
    await writeFile(gatewayFile, JSON.stringify({
      plugins: [
        // Three gateways, the mock and the load share 2 cores here: a Redis answer may take longer than
        // the default 200 ms, and rate limits fail open past it (documented); this test counts exactly.
        { use: 'store.redis', options: { keyPrefix: prefix, commandTimeoutMs: 5000 } },
        { use: 'feature.batches', options: { concurrency: 2, leaseTtlMs: 3000, leaseHeartbeatMs: 500, leaseScanIntervalMs: 500 } },
        { use: 'observe.logs', options: { flushIntervalMs: 50 } },
      ],
    }));
    const env = {
      PORT: '0', GW_DATABASE_URL: schema.url, GW_REDIS_URL: redisUrl, GW_SECRET_KEY: randomBytes(32).toString('base64'),
      GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent',
    };
    // Started together: migrations and the first key happen once.
    gws = await Promise.all(['a', 'b', 'c'].map((name) => spawnMain(['--config', gatewayFile], { ...env, GW_DATA_DIR: join(folder, name) })));
  });

  after(async () => {
    for (const gw of gws) {
      if (gw.child.exitCode === null && gw.child.signalCode === null) {
        gw.child.kill('SIGTERM');
        await once(gw.child, 'exit');
      }
    }
    await mock?.close();
    await schema?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
    if (redisUrl && prefix) await deletePrefix(redisUrl, prefix).catch(() => undefined);
  });

  beforeEach(() => mock?.reset());

  it('a key made on A works on B and C; deleted on A, it is a 401 on B within 1 s', async () => {
    const [a, b, c] = gws as [MainProcess, MainProcess, MainProcess];
    const created = await request(a, 'POST', '/v1/api-keys', { name: 'fleet', type: 'organisation-service' });
    expect(created.status, created.text).to.equal(200);
    const key = created.json.key as string;
    for (const gw of [b, c]) expect((await chat(gw, withConfig(leaf(), { 'x-gw-api-key': key }))).status).to.equal(200);
    expect((await request(a, 'DELETE', `/v1/api-keys/${created.json.id}`)).status).to.equal(200);
    await within(1000, async () => (await chat(b, withConfig(leaf(), { 'x-gw-api-key': key }))).status === 401);
  });

  it('a stored config and an @slug integration made on A are used by C', async () => {
    const [a, , c] = gws as [MainProcess, MainProcess, MainProcess];
    const integration = await request(a, 'POST', '/v1/integrations', { slug: 'fleet-acct', provider: 'openai', key: 'sk-fleet-0000000000', configurations: { custom_host: `${mock.url}/v1` } });
    expect(integration.status, integration.text).to.equal(200);
    const config = await request(a, 'POST', '/v1/configs', { slug: 'fleet-config', config: { provider: '@fleet-acct' } });
    expect(config.status, config.text).to.equal(200);
    const viaConfig = await chat(c, { 'x-gw-config': 'fleet-config' });
    expect(viaConfig.status, viaConfig.text).to.equal(200);
    const viaSlug = await chat(c, { 'x-gw-provider': '@fleet-acct' });
    expect(viaSlug.status, viaSlug.text).to.equal(200);
    expect(mock.requests.map((r) => r.headers['authorization'])).to.deep.equal(['Bearer sk-fleet-0000000000', 'Bearer sk-fleet-0000000000']);
  });

  it('a circuit opened by failures seen on A is open on B', async () => {
    const [a, b] = gws as [MainProcess, MainProcess];
    const config = leaf({ cb_config: { failure_threshold: 3, cooldown_interval: 60_000 } });
    mock.next({ status: 503 }, { status: 503 }, { status: 503 });
    for (let i = 0; i < 3; i++) expect((await chat(a, withConfig(config))).status).to.equal(503);
    await within(1000, async () => (await chat(b, withConfig(config))).json?.error?.code === 'circuit_open');
    expect(mock.requests).to.have.length(3);
  });

  it('logs made on A are listed by C', async () => {
    const [a, , c] = gws as [MainProcess, MainProcess, MainProcess];
    const trace = `fleet-log-${randomBytes(4).toString('hex')}`;
    expect((await chat(a, withConfig(leaf(), { 'x-gw-trace-id': trace }))).status).to.equal(200);
    await within(5000, async () => (await request(c, 'GET', `/v1/logs?trace_id=${trace}`)).json?.data?.length === 1);
  });

  it('a file uploaded to A is downloaded from B', async () => {
    const [a, b] = gws as [MainProcess, MainProcess];
    const content = randomBytes(700 * 1024).toString('base64');
    const uploaded = await request(a, 'POST', '/v1/files', form(content, 'batch'));
    expect(uploaded.status, uploaded.text).to.equal(200);
    const res = await fetch(`${b.url}/v1/files/${uploaded.json.id}/content`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal(content);
  });

  it('a 100-per-minute rate limit lets 100 of 300 requests through across the three', async () => {
    const created = await request(gws[0]!, 'POST', '/v1/policies/rate-limits', {
      conditions: [{ key: 'metadata.user', value: 'fleet-rpm' }], group_by: [{ key: 'metadata.user' }], type: 'requests', unit: 'rpm', value: 100,
    });
    expect(created.status, created.text).to.equal(200);
    // Every instance knows the policy (the bus), and all 300 fall in one minute window.
    await new Promise((r) => setTimeout(r, 500));
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
    const metadata = { 'x-gw-metadata': JSON.stringify({ user: 'fleet-rpm' }) };
    const statuses: number[] = [];
    for (let wave = 0; wave < 10; wave++) {
      const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => chat(gws[i % 3]!, withConfig(leaf(), metadata))));
      statuses.push(...replies.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200)).to.have.length(100);
    expect(statuses.filter((s) => s === 429)).to.have.length(200);
  });

  it('a managed batch whose instance is killed with SIGKILL finishes on another, each line once in the output', async () => {
    const [a, b, c] = gws as [MainProcess, MainProcess, MainProcess];
    for (let i = 0; i < LINES; i++) mock.next({ delayMs: 40 });
    const input = await request(a, 'POST', '/v1/files', form(chatLines(LINES, 'kill')));
    expect(input.status, input.text).to.equal(200);
    const batch = await request(a, 'POST', '/v1/batches', { input_file_id: input.json.id, endpoint: '/v1/chat/completions', completion_window: 'immediate' }, withConfig(leaf()));
    expect(batch.status, batch.text).to.equal(200);
    const id = batch.json.id as string;
    await within(20_000, async () => (await request(b, 'GET', `/v1/batches/${id}`)).json.request_counts.completed >= 10);
    a.child.kill('SIGKILL');
    await once(a.child, 'exit');
    const killedAt = Date.now();
    let done: any;
    await within(60_000, async () => {
      done = (await request(c, 'GET', `/v1/batches/${id}`)).json;
      return done.status === 'completed';
    });
    expect(Date.now() - killedAt).to.be.below(60_000);
    expect(done.request_counts).to.deep.equal({ total: LINES, completed: LINES, failed: 0 });
    const output = await fetch(`${b.url}/v1/files/${done.output_file_id}/content`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
    const ids = parseJsonl(await output.text()).map((l) => l.custom_id as string);
    expect(ids).to.deep.equal(Array.from({ length: LINES }, (_, i) => `kill-${i}`));
    // Lines finished before the kill were not sent again; at most the two in flight were.
    expect(mock.requests.length).to.be.within(LINES, LINES + 2);
  });
});
