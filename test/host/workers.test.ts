/**
 * GW_WORKERS: `node dist/host/main.js` as a cluster primary with worker processes on one port,
 * against a private redis-server (skipped when the binary is missing). Each request below opens its
 * own connection, so the primary hands them to the workers in turn.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, TEST_API_KEY } from '../helpers/gateway.js';
import { spawnMain, type MainProcess } from '../helpers/main-process.js';
import { rawConnect, rawRequest } from '../helpers/raw-http.js';
import { freePort, hasRedisServer, startRedisServer, type OwnRedis } from '../plugins/stores/redis/helpers.js';

interface WorkerLine {
  worker: number;
  pid: number;
  msg: string;
}

/** The primary's JSON log lines about its workers. */
function workerLines(output: string): WorkerLine[] {
  return output.split('\n').filter((l) => l.startsWith('{') && l.includes('"worker"')).map((l) => JSON.parse(l) as WorkerLine)
    .filter((l) => l.msg === 'worker started' || l.msg === 'worker died: replacing it');
}

const healthOf = (url: string) => rawRequest(url, 'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');

function chatOf(url: string, mock: MockOpenAI, key = TEST_API_KEY) {
  const body = JSON.stringify(CHAT_BODY);
  const headers = Object.entries(directHeaders(mock, { 'x-gw-api-key': key })).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return rawRequest(url, `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`);
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Worker numbers seen over `n` fresh connections. */
async function workersSeen(url: string, n: number): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const reply = await healthOf(url);
    if (typeof reply.json?.worker === 'number') seen.add(reply.json.worker);
  }
  return seen;
}

describe('GW_WORKERS: several processes on one port', function () {
  this.timeout(90_000);
  let mock: MockOpenAI;
  let redis: OwnRedis;
  let dataDir: string;
  let gw: MainProcess | undefined;

  const start = (env: Record<string, string> = {}) => spawnMain([], {
    PORT: '0', GW_DATA_DIR: dataDir, GW_WORKERS: '2', GW_REDIS_URL: redis.url, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'info', ...env,
  });

  before(async function () {
    if (!hasRedisServer()) return this.skip();
    mock = await startMockOpenAI({ streamChunkDelayMs: 150 });
    redis = await startRedisServer(await freePort());
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-workers-'));
  });
  afterEach(async () => {
    if (gw && gw.child.exitCode === null && gw.child.signalCode === null) {
      const exited = once(gw.child, 'exit');
      gw.child.kill('SIGTERM');
      await exited;
    }
    gw = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });
  after(async () => {
    await mock?.close();
    await redis?.kill();
  });

  it('serves from both workers, and the generated first key is made once and works on each', async () => {
    gw = await start({ GW_BOOTSTRAP_API_KEY: '' });
    expect(gw.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.output()).to.contain('(2 workers)');
    const keys = [...gw.output().matchAll(/shown only now: (\S+)/g)].map((m) => m[1]!);
    expect(keys).to.have.length(1);
    expect([...await workersSeen(gw.url, 6)].sort()).to.deep.equal([1, 2]);
    for (let i = 0; i < 4; i++) {
      const reply = await chatOf(gw.url, mock, keys[0]);
      expect(reply.status).to.equal(200);
      expect(reply.json.object).to.equal('chat.completion');
    }
    const health = await healthOf(gw.url);
    expect(health.status).to.equal(200);
    expect(health.json).to.deep.include({ status: 'ok', checks: { 'store.sqlite': 'ok', redis: 'ok' } });
  });

  it('replaces a worker killed with SIGKILL, and the other serves meanwhile', async () => {
    gw = await start();
    const first = workerLines(gw.output()).find((l) => l.worker === 1 && l.msg === 'worker started')!;
    process.kill(first.pid, 'SIGKILL');
    await until(() => workerLines(gw!.output()).some((l) => l.msg === 'worker died: replacing it' && l.worker === 1), 'the death to be noticed');
    for (let i = 0; i < 4; i++) expect((await chatOf(gw.url, mock)).status).to.equal(200);
    await until(() => workerLines(gw!.output()).some((l) => l.msg === 'worker started' && l.worker === 3), 'a replacement worker');
    await until(async () => (await workersSeen(gw!.url, 2)).has(3), 'the replacement to serve');
    expect([...await workersSeen(gw.url, 6)].sort()).to.deep.equal([2, 3]);
    expect((await chatOf(gw.url, mock)).status).to.equal(200);
  });

  it('drains an in-flight stream on a worker on SIGTERM, refuses new connections, then exits 0', async () => {
    gw = await start();
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST', headers: directHeaders(mock), body: JSON.stringify({ ...CHAT_BODY, stream: true }),
    });
    expect(res.status).to.equal(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    expect(text).to.contain('chat.completion.chunk');
    const exited = once(gw.child, 'exit');
    gw.child.kill('SIGTERM');
    const url = gw.url;
    await until(() => rawConnect(url).then(({ socket }) => (socket.destroy(), false), () => true), 'new connections to be refused', 2000);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
    const [code] = await exited;
    expect(code).to.equal(0);
  });

  it('stops at boot, once, when a worker cannot start (no restart loop)', async () => {
    const file = join(dataDir, 'gw.json');
    await writeFile(file, '{"preset":"nope"}');
    const child = (await spawnMain(['--config', file], {
      PORT: '0', GW_DATA_DIR: dataDir, GW_WORKERS: '2', GW_REDIS_URL: redis.url, GW_LOG_LEVEL: 'info',
    }).then(() => expect.fail('it must not listen'), (e: Error) => e.message));
    expect(child).to.match(/^gateway exited 1:/);
    expect(child).to.contain('unknown preset "nope"');
    expect(child).to.contain('gw: failed to start: worker 1 exited (code 1) before it listened');
    expect(child.match(/"worker started"/g)).to.have.length(1);
  });
});

describe('GW_WORKERS: refused settings', function () {
  this.timeout(20_000);

  const refused = async (env: Record<string, string>) => {
    const message = await spawnMain([], { PORT: '0', GW_LOG_LEVEL: 'silent', GW_REDIS_URL: '', ...env })
      .then(() => expect.fail('it must not start'), (e: Error) => e.message);
    expect(message).to.match(/^gateway exited 1:/);
    return message;
  };

  it('refuses N > 1 without GW_REDIS_URL, saying what must be shared', async () => {
    const message = await refused({ GW_WORKERS: '2' });
    expect(message).to.contain('gw: failed to start: GW_WORKERS=2 needs GW_REDIS_URL: rate-limit and usage-limit counters, circuit breakers');
  });

  for (const bad of ['0', '-1', 'abc', '1.5', '257']) {
    it(`refuses GW_WORKERS=${bad}, naming the variable`, async () => {
      const message = await refused({ GW_WORKERS: bad, GW_REDIS_URL: 'redis://127.0.0.1:1' });
      expect(message).to.contain(`gw: failed to start: GW_WORKERS must be "auto" or an integer 1..256, got "${bad}"`);
    });
  }
});
