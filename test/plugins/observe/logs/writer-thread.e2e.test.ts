/**
 * observe.logs on SQLite, whose batches a writer thread writes: requests never wait for it, whether
 * its batches fail (a write the database refuses), it is stuck behind another connection's write
 * lock (the queue sheds, counted in metrics), or it dies (the next batch starts another).
 * (The PostgreSQL store has no writer thread: these are skipped on that pass.)
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Services } from '../../../../core/index.js';
import MetricsPlugin from '../../../../plugins/observe/metrics/index.js';
import type { WorkerBatchWriter } from '../../../../plugins/stores/sqlite/batch-writer.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, type TestGateway } from '../../../helpers/gateway.js';
import { parsePrometheus } from '../metrics/prom-text.js';
import { getJson, logService, mockHeaders, startObserved, until } from './harness.js';

describe('observe.logs: the SQLite writer thread', function () {
  this.timeout(20_000);
  let mock: MockOpenAI;
  let gw: TestGateway;
  let writer: WorkerBatchWriter | undefined;

  before(async function () {
    mock = await startMockOpenAI();
    gw = await startObserved({ logs: { queueCapacity: 50, batchSize: 10, flushIntervalMs: 10 }, extra: [MetricsPlugin] });
    writer = gw.gateway.runtime.services.get(Services.Records).batchWriter as WorkerBatchWriter | undefined;
    if (!writer) this.skip();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  let sent = 0;
  /** Waits until every request sent has had its entry written, shed or failed (an entry is queued after its answer has gone out). */
  const settle = () => until(async () => {
    await logService(gw).flush();
    const s = logService(gw).stats();
    return s.queued + s.written + s.failed + s.dropped === sent;
  });
  /** `n` requests, 8 at a time; every one must be answered 200, quickly. */
  const traffic = async (n: number, run: string) => {
    sent += n;
    let next = 0;
    let slowest = 0;
    const loop = async () => {
      while (next++ < n) {
        const started = performance.now();
        const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock, { 'x-gw-metadata': JSON.stringify({ run }) }));
        slowest = Math.max(slowest, performance.now() - started);
        expect(reply.status).to.equal(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, loop));
    return slowest;
  };
  const rowsOf = async (run: string) =>
    (await getJson(gw.url, `/v1/logs?metadata=${encodeURIComponent(JSON.stringify({ run }))}&page_size=1`)).json.total_count as number;
  const metric = async (name: string) => parsePrometheus(await (await fetch(`${gw.url}/metrics`)).text()).value(name);

  it('writes off the event loop: rows are read back once flushed', async () => {
    await traffic(40, 'plain');
    await settle();
    expect(writer!.worker).to.not.equal(undefined);
    expect(await rowsOf('plain')).to.equal(40);
  });

  it('counts the rows of batches the database refuses (metrics too), answers every request, and writes again once it accepts', async () => {
    const db = gw.gateway.runtime.services.get(Services.Records);
    await db.run("CREATE TRIGGER refuse_logs BEFORE INSERT ON request_logs BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    const before = logService(gw).stats().failed;
    try {
      await traffic(30, 'refused');
      await settle();
      expect(logService(gw).stats().failed - before).to.equal(30);
      expect(await metric('gw_log_failed_total')).to.equal(logService(gw).stats().failed);
    } finally {
      await db.run('DROP TRIGGER refuse_logs');
    }
    expect(await rowsOf('refused')).to.equal(0);
    await traffic(5, 'accepted');
    await settle();
    expect(await rowsOf('accepted')).to.equal(5);
  });

  it('sheds and counts (metrics too) while the thread waits for a write lock, and no request waits with it', async () => {
    const blocker = new Database(join(gw.dataDir, 'gw.db'));
    blocker.exec('BEGIN IMMEDIATE');
    let held = true;
    try {
      const droppedBefore = logService(gw).stats().dropped;
      const slowest = await traffic(200, 'locked');
      expect(slowest).to.be.lessThan(1000);
      const stats = logService(gw).stats();
      expect(stats.dropped - droppedBefore).to.be.greaterThan(0);
      expect(stats.queued).to.be.at.most(50);
      expect(await metric('gw_log_dropped_total')).to.equal(stats.dropped);
      blocker.exec('COMMIT');
      held = false;
      await settle();
      // What was not shed is written: the queue, and the batch that waited for the lock.
      expect(await rowsOf('locked')).to.equal(200 - (logService(gw).stats().dropped - droppedBefore));
    } finally {
      if (held) blocker.exec('ROLLBACK');
      blocker.close();
    }
  });

  it('starts another thread when it dies between batches: requests go on, later rows are written', async () => {
    await traffic(5, 'before-death');
    await settle();
    const failedBefore = logService(gw).stats().failed;
    const first = writer!.worker!;
    await first.terminate();
    // Batches sent between its death and its 'exit' event are lost (counted as failed): wait for the event.
    await until(() => writer!.worker === undefined);
    await traffic(20, 'after-death');
    await settle();
    await until(() => writer!.worker !== undefined && writer!.worker !== first);
    expect(await rowsOf('after-death')).to.equal(20);
    expect(logService(gw).stats().failed).to.equal(failedBefore);
  });
});
