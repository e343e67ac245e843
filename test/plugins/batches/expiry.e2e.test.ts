/**
 * feature.batches windows: a managed batch past `expires_at` stops, aborts what is in flight and
 * ends `expired`, keeping finished lines and reporting the others as `batch_expired`. Time is an
 * injected clock moved by hand; a graceful restart resumes where the batch stood.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, serve, type RunningServer } from '../../../host/index.js';
import BatchesPlugin from '../../../plugins/batches/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';
import { call, chatLines, featurePlugins, parseJsonl, startFeatureGateway, until, upload } from '../files/helpers.js';

const HOUR = 3600 * 1000;

class ManualClock {
  t = Date.now();
  now(): number {
    return this.t;
  }
}

function batchesWith(clock: ManualClock): typeof BatchesPlugin {
  return class FakeClockBatches extends BatchesPlugin {
    constructor() {
      super(clock);
    }
  };
}

describe('feature.batches: expiry', () => {
  let mock: MockOpenAI;
  let direct: Record<string, string>;

  before(async () => {
    mock = await startMockOpenAI();
    direct = { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test', 'x-gw-custom-host': `${mock.url}/v1` };
  });
  after(async () => {
    await mock.close();
  });
  beforeEach(() => mock.reset());

  const immediate = (input: string) => ({ input_file_id: input, endpoint: '/v1/chat/completions', completion_window: 'immediate' });

  describe('while running', () => {
    let gw: TestGateway;
    const clock = new ManualClock();
    before(async () => {
      gw = await startFeatureGateway({ batchesClass: batchesWith(clock), batches: { concurrency: 1, expiryCheckIntervalMs: 10, immediateWindowSeconds: 600 } });
    });
    after(async () => {
      await gw.stop();
    });

    it('expires past the window: finished lines kept, in-flight aborted, the rest reported as batch_expired', async () => {
      // The third call never answers: only the window can end this batch.
      mock.next({ delayMs: 1 }, { delayMs: 1 }, { hang: true });
      const input = await upload(gw.url, chatLines(6, 'e'));
      const created = (await call(gw.url, 'POST', '/v1/batches', direct, immediate(input.id))).json;
      expect(created.expires_at).to.equal(created.created_at + 600);
      await until(() => call(gw.url, 'GET', `/v1/batches/${created.id}`), (r) => r.json.request_counts.completed === 2 && mock.requests.length === 3);

      clock.t += 601 * 1000;
      const batch = (await until(() => call(gw.url, 'GET', `/v1/batches/${created.id}`), (r) => r.json.status === 'expired')).json;
      expect(batch.expired_at).to.equal(Math.floor(clock.t / 1000));
      expect(batch.completed_at).to.equal(null);
      expect(batch.request_counts).to.deep.equal({ total: 6, completed: 2, failed: 0 });
      const output = parseJsonl((await call(gw.url, 'GET', `/v1/files/${batch.output_file_id}/content`)).text);
      expect(output.map((l) => l.custom_id)).to.deep.equal(['e-0', 'e-1']);
      const errors = parseJsonl((await call(gw.url, 'GET', `/v1/files/${batch.error_file_id}/content`)).text);
      expect(errors.map((l) => l.custom_id)).to.deep.equal(['e-2', 'e-3', 'e-4', 'e-5']);
      for (const line of errors) {
        expect(line.response).to.equal(null);
        expect(line.error).to.deep.equal({ code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' });
      }
      expect(mock.requests).to.have.length(3);
    });
  });

  describe('across a restart', () => {
    let dataDir: string;
    let running: RunningServer | undefined;
    const clock = new ManualClock();

    const start = async () => {
      const gateway = await createGateway({
        composition: { plugins: featurePlugins({ batchesClass: batchesWith(clock), batches: { concurrency: 1, expiryCheckIntervalMs: 10 } }) },
        env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' },
      });
      running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });
      return running.url;
    };

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'gw-batch-expiry-'));
    });
    after(async () => {
      await running?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    /** Starts a batch whose second line hangs, waits until the first is recorded, stops the gateway. */
    const startAndPause = async (prefix: string): Promise<string> => {
      const url = await start();
      mock.next({ delayMs: 1 }, { hang: true });
      const input = await upload(url, chatLines(4, prefix));
      const id = (await call(url, 'POST', '/v1/batches', direct, immediate(input.id))).json.id as string;
      await until(() => call(url, 'GET', `/v1/batches/${id}`), (r) => r.json.request_counts.completed === 1 && mock.requests.length === 2);
      await running!.stop();
      running = undefined;
      return id;
    };

    it('pauses at shutdown (the in-flight line is not recorded) and resumes without repeating finished lines', async () => {
      const id = await startAndPause('p');
      const url = await start();
      const batch = (await until(() => call(url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'completed')).json;
      expect(batch.request_counts).to.deep.equal({ total: 4, completed: 4, failed: 0 });
      const output = parseJsonl((await call(url, 'GET', `/v1/files/${batch.output_file_id}/content`)).text);
      expect(output.map((l) => l.custom_id)).to.deep.equal(['p-0', 'p-1', 'p-2', 'p-3']);
      // p-0 ran once; p-1 was cut by the shutdown and ran again; p-2 and p-3 once each.
      expect(mock.requests).to.have.length(5);
      await running!.stop();
      running = undefined;
    });

    it('expires at once when it resumes past its window, keeping what finished before', async () => {
      const id = await startAndPause('x');
      clock.t += 25 * HOUR;
      const url = await start();
      const batch = (await until(() => call(url, 'GET', `/v1/batches/${id}`), (r) => r.json.status === 'expired')).json;
      expect(batch.request_counts).to.deep.equal({ total: 4, completed: 1, failed: 0 });
      const output = parseJsonl((await call(url, 'GET', `/v1/files/${batch.output_file_id}/content`)).text);
      expect(output.map((l) => l.custom_id)).to.deep.equal(['x-0']);
      const errors = parseJsonl((await call(url, 'GET', `/v1/files/${batch.error_file_id}/content`)).text);
      expect(errors.map((l) => [l.custom_id, l.error.code])).to.deep.equal([['x-1', 'batch_expired'], ['x-2', 'batch_expired'], ['x-3', 'batch_expired']]);
      expect(mock.requests).to.have.length(2);
    });
  });
});
