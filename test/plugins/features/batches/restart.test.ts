/**
 * feature.batches crash safety: the real gateway process (`node dist/host/main.js`) runs a managed
 * batch against a slow provider, is killed with SIGKILL mid-run, and started again on the same data
 * folder. The batch resumes and completes: every line is in the output exactly once.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { call, chatLines, parseJsonl, until, upload } from '../files/helpers.js';
import { startMain } from '../../../helpers/main-process.js';
import { withRecords } from '../../../helpers/records.js';

const LINES = 200;
const CONCURRENCY = 8;

describe('feature.batches: restart after a crash (kill -9)', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let dataDir: string;
  let gatewayFile: string;
  let child: ChildProcess | undefined;

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-batch-crash-'));
    // The three plugins by path, on top of the default preset (once they are built-ins, the entries re-configure them).
    gatewayFile = join(dataDir, 'gateway.json');
    await writeFile(gatewayFile, JSON.stringify({
      plugins: [
        resolve('dist/plugins/security/secret-box/index.js'),
        resolve('dist/plugins/features/files/index.js'),
        { use: resolve('dist/plugins/features/batches/index.js'), options: { concurrency: CONCURRENCY, leaseTtlMs: 2000, leaseHeartbeatMs: 500, leaseScanIntervalMs: 500 } },
      ],
    }));
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes without losing or repeating a finished line', async () => {
    // Every upstream call takes ~20 ms: 200 lines at 8 in flight run for at least half a second.
    for (let i = 0; i < LINES * 2; i++) mock.next({ delayMs: 20 });
    const first = await startMain(dataDir, gatewayFile);
    child = first.child;
    const direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` };
    const input = await upload(first.url, chatLines(LINES, 'line'));
    const id = (await call(first.url, 'POST', '/v1/batches', direct, { input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: 'immediate' })).json.id as string;
    await until(() => call(first.url, 'GET', `/v1/batches/${id}`), (r) => r.json.request_counts.completed >= 50, 20_000, 5);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');

    // Killed mid-run: the store holds some finished lines, not all.
    const { before, rows } = await withRecords(dataDir, async (db) => ({
      before: (await db.get<{ status: string; completed: number }>('SELECT status, completed FROM batches WHERE id = ?', [id]))!,
      rows: (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM batch_lines WHERE batch_id = ?', [id]))!.n,
    }));
    expect(before.status).to.equal('in_progress');
    expect(rows).to.be.within(50, LINES - 1);
    const requestsAtCrash = mock.requests.length;

    const second = await startMain(dataDir, gatewayFile);
    child = second.child;
    const batch = (await until(() => call(second.url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'completed', 30_000)).json;
    expect(batch.request_counts).to.deep.equal({ total: LINES, completed: LINES, failed: 0 });

    const output = parseJsonl((await call(second.url, 'GET', `/v1/files/${batch.output_file_id}/content`)).text);
    const ids = output.map((l) => l.custom_id as string);
    expect(ids).to.have.length(LINES);
    expect(new Set(ids).size).to.equal(LINES);
    expect(ids).to.deep.equal(Array.from({ length: LINES }, (_, i) => `line-${i}`));
    expect(batch.error_file_id).to.equal(null);
    // Only lines that were in flight at the crash ran twice upstream; finished ones did not run again.
    expect(mock.requests.length - LINES).to.be.within(0, CONCURRENCY);
    expect(mock.requests.length).to.be.at.least(requestsAtCrash);

    second.child.kill('SIGTERM');
    const [code] = await once(second.child, 'exit');
    expect(code).to.equal(0);
  });
});
