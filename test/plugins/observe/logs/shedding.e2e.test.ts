/**
 * Under a store slower than the traffic, the log queue sheds its oldest entries and counts them,
 * and no request waits for the log.
 */
import { expect } from 'chai';
import { Services, type BatchWriter, type RecordStore } from '../../../../core/index.js';
import { Recorder } from '../../../../plugins/observe/logs/recorder.js';
import type { LogStore } from '../../../../plugins/observe/logs/store.js';
import type { PendingLog } from '../../../../plugins/observe/logs/entry.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, type TestGateway } from '../../../helpers/gateway.js';
import { getJson, logService, mockHeaders, startObserved, until } from './harness.js';

const STORE_DELAY_MS = 600;

describe('observe.logs under a slow store', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let restore: (() => void) | undefined;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startObserved({ logs: { queueCapacity: 20, batchSize: 5, flushIntervalMs: 10 } });
  });
  after(async () => {
    restore?.();
    await gw?.stop();
    await mock?.close();
  });

  it('sheds the oldest entries, counts them, and slows no request', async () => {
    // The store the plugin writes through (its batch writer when it has one): every log batch now takes STORE_DELAY_MS.
    const store = gw.gateway.runtime.services.get(Services.Records);
    const writer = store.batchWriter as { write: BatchWriter['write'] } | undefined;
    if (writer) {
      const write = writer.write.bind(writer);
      writer.write = async (statements) => {
        await new Promise((r) => setTimeout(r, STORE_DELAY_MS));
        return write(statements);
      };
      restore = () => {
        writer.write = write;
      };
    } else {
      const run = store.run.bind(store);
      (store as { run: RecordStore['run'] }).run = async (sql, params) => {
        if (sql.startsWith('INSERT INTO request_logs')) await new Promise((r) => setTimeout(r, STORE_DELAY_MS));
        return run(sql, params);
      };
      restore = () => {
        (store as { run: RecordStore['run'] }).run = run;
      };
    }

    const total = 120;
    const latencies: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < total) {
        next++;
        const started = performance.now();
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-metadata': '{"run":"shed"}' }));
        latencies.push(performance.now() - started);
        expect(reply.status).to.equal(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    const stats = logService(gw).stats();
    expect(stats.dropped).to.be.greaterThan(0);
    expect(stats.queued).to.be.at.most(20);
    // No request waited for a write: each took far less than one slow INSERT.
    expect(Math.max(...latencies)).to.be.lessThan(STORE_DELAY_MS / 2);

    restore();
    restore = undefined;
    await logService(gw).flush();
    const after = logService(gw).stats();
    expect(after.queued).to.equal(0);
    expect(after.failed).to.equal(0);
    const rows = (await getJson(gw.url, `/v1/logs?metadata=${encodeURIComponent('{"run":"shed"}')}&page_size=1`)).json.total_count;
    expect(rows + after.dropped).to.equal(total);
    expect(rows).to.equal(after.written);
  });
});

describe('observe.logs recorder', () => {
  const entry = (i: number) => ({ status: 200 + i, createdAt: 0, method: 'POST', path: '/', stream: false, latencyMs: 1, upstreamMs: null, retries: 0 }) as unknown as PendingLog;
  const logger = { warn() {}, error() {}, info() {} } as never;

  it('never blocks a push while a batch is being written, and counts failed batches', async () => {
    let release!: () => void;
    const written: number[] = [];
    let fail = false;
    const store = {
      insert: async (rows: unknown[][]) => {
        await new Promise<void>((r) => (release = r));
        if (fail) throw new Error('disk full');
        written.push(rows.length);
      },
    } as unknown as LogStore;
    const recorder = new Recorder(store, {
      capacity: 4, batchSize: 2, flushIntervalMs: 60_000, rows: { maxBodyBytes: 1024 }, pricing: () => undefined,
    }, logger);
    try {
      for (let i = 0; i < 2; i++) recorder.push(entry(i));
      const flushing = recorder.flush();
      await until(() => release !== undefined);
      // The writer is stuck on its first batch: pushes go on, the queue sheds beyond 4.
      for (let i = 0; i < 7; i++) recorder.push(entry(i));
      expect(recorder.stats()).to.include({ queued: 4, dropped: 3 });
      fail = true;
      for (let i = 0; i < 3; i++) {
        const r = release;
        r();
        await until(() => release !== r || recorder.stats().queued === 0);
      }
      await flushing;
      expect(recorder.stats()).to.include({ queued: 0, dropped: 3, written: 0, failed: 6 });
    } finally {
      await recorder.close();
    }
  });
});
