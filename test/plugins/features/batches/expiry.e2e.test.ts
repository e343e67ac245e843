/**
 * feature.batches windows: a managed batch past `expires_at` stops, aborts what is in flight and
 * ends `expired`, keeping finished lines and reporting the others as `batch_expired`. Time is an
 * injected clock moved by hand.
 */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, chatLines, parseJsonl, startFeatureGateway, until, upload } from '../files/helpers.js';
import { batchesWith, ManualClock } from './clock.js';

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
});
