/**
 * feature.batches across graceful restarts (in-process gateways on one data folder): shutdown
 * pauses a batch without recording in-flight lines; the next start resumes it from whatever state
 * it was left in (in_progress, finalizing, cancelling), or expires it when its window has passed.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, serve, type RunningServer } from '../../../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY } from '../../../helpers/gateway.js';
import { call, chatLines, featurePlugins, parseJsonl, until, upload } from '../files/helpers.js';
import { batchesWith, HOUR, ManualClock } from './clock.js';

describe('feature.batches: resume after a restart', () => {
  let mock: MockOpenAI;
  let direct: Record<string, string>;
  let dataDir: string;
  let running: RunningServer | undefined;
  const clock = new ManualClock();
  const KEY_A = randomBytes(32).toString('hex');

  const start = async (secretKey = KEY_A) => {
    const gateway = await createGateway({
      composition: { plugins: featurePlugins({ batchesClass: batchesWith(clock), batches: { concurrency: 1, expiryCheckIntervalMs: 10 } }) },
      env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent', GW_SECRET_KEY: secretKey },
    });
    running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });
    return running.url;
  };
  const stop = async () => {
    await running?.stop();
    running = undefined;
  };
  const waitFor = async (url: string, id: string, status: string) =>
    (await until(() => call(url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === status)).json;
  const outputIds = async (url: string, fileId: string | null) =>
    fileId ? parseJsonl((await call(url, 'GET', `/v1/files/${fileId}/content`)).text).map((l) => l.custom_id) : [];
  const sql = (statement: string, ...params: unknown[]) => {
    const db = new Database(join(dataDir, 'gw.db'));
    try {
      return db.prepare(statement).run(...params);
    } finally {
      db.close();
    }
  };

  /** Starts a 4-line batch whose second line hangs, waits until the first is recorded, stops the gateway. */
  const startAndPause = async (prefix: string): Promise<string> => {
    const url = await start();
    mock.next({ delayMs: 1 }, { hang: true });
    const input = await upload(url, chatLines(4, prefix));
    const id = (await call(url, 'POST', '/v1/batches', direct, { input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: 'immediate' })).json.id as string;
    await until(() => call(url, 'GET', `/v1/batches/${id}`), (r) => r.json.request_counts.completed === 1 && mock.requests.length === 2);
    await stop();
    return id;
  };

  before(async () => {
    mock = await startMockOpenAI();
    direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` };
    dataDir = await mkdtemp(join(tmpdir(), 'gw-batch-resume-'));
  });
  after(async () => {
    await stop();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => mock.reset());
  afterEach(stop);

  it('pauses at shutdown (the in-flight line is not recorded) and resumes without repeating finished lines', async () => {
    const id = await startAndPause('p');
    const url = await start();
    const batch = await waitFor(url, id, 'completed');
    expect(batch.request_counts).to.deep.equal({ total: 4, completed: 4, failed: 0 });
    expect(await outputIds(url, batch.output_file_id)).to.deep.equal(['p-0', 'p-1', 'p-2', 'p-3']);
    // p-0 ran once; p-1 was cut by the shutdown and ran again; p-2 and p-3 once each.
    expect(mock.requests).to.have.length(5);
  });

  it('expires at once when it resumes past its window, keeping what finished before', async () => {
    const id = await startAndPause('x');
    clock.t += 25 * HOUR;
    const url = await start();
    const batch = await waitFor(url, id, 'expired');
    expect(batch.request_counts).to.deep.equal({ total: 4, completed: 1, failed: 0 });
    expect(await outputIds(url, batch.output_file_id)).to.deep.equal(['x-0']);
    const errors = parseJsonl((await call(url, 'GET', `/v1/files/${batch.error_file_id}/content`)).text);
    expect(errors.map((l) => [l.custom_id, l.error.code])).to.deep.equal([['x-1', 'batch_expired'], ['x-2', 'batch_expired'], ['x-3', 'batch_expired']]);
    expect(mock.requests).to.have.length(2);
  });

  it('finishes a batch left finalizing: the files are written from the stored lines, nothing runs again', async () => {
    const id = await startAndPause('f');
    // As if the process died after the last line and the move to finalizing.
    sql("UPDATE batches SET status = 'finalizing', finalizing_at = 1, output_file_id = NULL, error_file_id = NULL WHERE id = ?", id);
    const url = await start();
    const batch = await waitFor(url, id, 'completed');
    expect(await outputIds(url, batch.output_file_id)).to.deep.equal(['f-0']);
    expect(batch.request_counts.completed).to.equal(1);
    expect(mock.requests).to.have.length(2);
  });

  it('finishes a batch left cancelling as cancelled', async () => {
    const id = await startAndPause('c');
    sql("UPDATE batches SET status = 'cancelling', cancelling_at = 1 WHERE id = ?", id);
    const url = await start();
    const batch = await waitFor(url, id, 'cancelled');
    expect(batch.cancelled_at).to.be.a('number');
    expect(await outputIds(url, batch.output_file_id)).to.deep.equal(['c-0']);
    expect(mock.requests).to.have.length(2);
  });

  it('fails a batch whose stored config cannot be opened (the secret key changed)', async () => {
    const id = await startAndPause('k');
    const url = await start(randomBytes(32).toString('hex'));
    const batch = await waitFor(url, id, 'failed');
    expect(batch.errors.data[0]).to.deep.include({ code: 'config_unreadable', line: null });
    expect(mock.requests).to.have.length(2);
  });
});
