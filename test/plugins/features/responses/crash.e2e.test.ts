/**
 * feature.responses after a crash: a real gateway process (`node dist/host/main.js`) starts a stored
 * response against a provider that never answers and is killed with SIGKILL. Its `in_progress` record
 * is not swept while that process lives, even by another instance on the same database; once it is
 * gone, a live instance or the next one to start reports the record failed (server_error).
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ResponsesPlugin from '../../../../plugins/features/responses/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMain } from '../../../helpers/main-process.js';
import { withRecords } from '../../../helpers/records.js';

/** Short for the test, yet long enough that a busy machine stalling the gateway process does not lose its lease. */
const LEASE_MS = 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The ids of the unfinished records, read from the store itself. */
async function inProgressIds(dataDir: string): Promise<string[]> {
  const rows = await withRecords(dataDir, (db) => db.all<{ id: string }>("SELECT id FROM stored_responses WHERE status = 'in_progress'"));
  return rows.map((r) => r.id);
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(20);
  }
}

describe('feature.responses: unfinished responses after a crash (kill -9)', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let dataDir: string;
  let gatewayFile: string;
  const children: ChildProcess[] = [];
  const gateways: TestGateway[] = [];

  const headers = {
    'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'groq', authorization: 'Bearer gsk-test', 'x-gw-custom-host': '',
  };
  const retrieve = async (gw: TestGateway, id: string): Promise<any> => (await fetch(`${gw.url}/v1/responses/${id}`, { headers })).json();
  /** A gateway in this process on the crashed one's data folder. */
  const startSibling = async (workerLeaseMs?: number) => {
    const gw = await startGateway({ plugins: [{ use: ResponsesPlugin, options: { workerLeaseMs } }], env: { GW_DATA_DIR: dataDir } });
    gateways.push(gw);
    return gw;
  };
  /** A gateway process working on a response that never finishes: the provider never answers. */
  const crashable = async () => {
    mock.next({ hang: true });
    const { child, url } = await startMain(dataDir, gatewayFile);
    children.push(child);
    fetch(`${url}/v1/responses`, { method: 'POST', headers, body: JSON.stringify({ model: 'm', input: 'never answered' }) }).catch(() => undefined);
    const [id] = await until(() => inProgressIds(dataDir), (ids) => ids.length === 1);
    expect(id, 'an in_progress record').to.be.a('string');
    return { child, id: id! };
  };
  const kill9 = async (child: ChildProcess) => {
    child.kill('SIGKILL');
    await once(child, 'exit');
  };

  before(async () => {
    mock = await startMockOpenAI();
    headers['x-gw-custom-host'] = `${mock.url}/v1`;
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-responses-crash-'));
    gatewayFile = join(dataDir, 'gateway.json');
    await writeFile(gatewayFile, JSON.stringify({ plugins: [{ use: 'feature.responses', options: { workerLeaseMs: LEASE_MS } }] }));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) await kill9(child);
    for (const gw of gateways.splice(0)) await gw.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  after(async () => {
    await mock?.close();
  });

  it('a gateway started after the crash reports the record failed, in the documented error shape', async () => {
    const { child, id } = await crashable();
    await kill9(child);
    await sleep(LEASE_MS + 100); // the dead process's lease runs out
    // The default lease (30 s) renews nothing during this test: the start of the gateway did it.
    const next = await startSibling();
    const got = await retrieve(next, id);
    expect(got).to.deep.include({ id, object: 'response', status: 'failed', output: [] });
    expect(got.error).to.deep.equal({ code: 'server_error', message: 'the gateway restarted before this response finished: the process working on it stopped' });
    const viaSdk = await new OpenAI({ apiKey: 'gsk-test', baseURL: `${next.url}/v1`, maxRetries: 0, defaultHeaders: headers }).responses.retrieve(id);
    expect(viaSdk.status).to.equal('failed');
    expect(viaSdk.error?.code).to.equal('server_error');
  });

  it("a live instance on the same database leaves another live instance's record alone, and fails it once that process is killed", async () => {
    const { child, id } = await crashable();
    const sibling = await startSibling(LEASE_MS);
    await sleep(LEASE_MS * 2); // the sibling has swept several times meanwhile
    expect((await retrieve(sibling, id)).status).to.equal('in_progress');

    await kill9(child);
    const got = await until(() => retrieve(sibling, id), (r) => r.status !== 'in_progress', LEASE_MS * 5);
    expect(got.status).to.equal('failed');
    expect(got.error.code).to.equal('server_error');
    expect(got.error.message).to.match(/gateway restarted/);
  });
});
