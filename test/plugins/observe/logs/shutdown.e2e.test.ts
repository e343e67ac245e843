/**
 * observe.logs in a real gateway process (`node dist/host/main.js`) that gets SIGTERM under load:
 * every answered request has its row once the process has exited, whether its entry was still
 * queued (a long flush interval) or in a batch being written.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders } from '../../../helpers/gateway.js';
import { startMain } from '../../../helpers/main-process.js';
import { withRecords } from '../../../helpers/records.js';

const CONNECTIONS = 16;

/** Requests from `CONNECTIONS` loops until the gateway stops answering; counts the answers. */
function load(url: string, mock: MockOpenAI): { answered: () => number; sent: () => number; done: Promise<void> } {
  let answered = 0;
  let sent = 0;
  const loop = async () => {
    for (;;) {
      sent++;
      try {
        const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock), body: JSON.stringify(CHAT_BODY) });
        await res.arrayBuffer();
        if (res.status === 200) answered++;
      } catch {
        return; // refused: the gateway is stopping
      }
    }
  };
  const done = Promise.all(Array.from({ length: CONNECTIONS }, loop)).then(() => undefined);
  return { answered: () => answered, sent: () => sent, done };
}

describe('observe.logs: SIGTERM under load', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let dataDir: string;
  let child: ChildProcess | undefined;

  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock.close();
  });
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gw-logs-sigterm-'));
  });
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  for (const [name, options] of [
    ['entries still queued (a flush interval longer than the test)', { flushIntervalMs: 60_000, batchSize: 500 }],
    ['batches being written (small batches, written as they fill)', { flushIntervalMs: 60_000, batchSize: 16 }],
  ] as const) {
    it(`writes every answered request's row before exiting 0: ${name}`, async () => {
      const gatewayFile = join(dataDir, 'gateway.json');
      await writeFile(gatewayFile, JSON.stringify({ plugins: [{ use: 'observe.logs', options }] }));
      const main = await startMain(dataDir, gatewayFile);
      child = main.child;
      const traffic = load(main.url, mock);
      while (traffic.answered() < 300) await new Promise((r) => setTimeout(r, 10));
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      await traffic.done;
      expect(code, main.output()).to.equal(0);
      const rows = await withRecords(dataDir, async (db) => Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM request_logs'))!.n));
      // Every answered request is there; requests cut off by the stop may be there too, never more than were sent.
      expect(rows).to.be.at.least(traffic.answered());
      expect(rows).to.be.at.most(traffic.sent());
    });
  }
});
