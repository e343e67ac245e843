/** observe.logs options: recorded bodies (redacted, capped), retention, which routes are logged, bad options. */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import RequestLogsPlugin from '../../../../plugins/observe/logs/index.js';
import { getJson, logService, mockHeaders, startObserved, until } from './harness.js';
import { withRecords } from '../../../helpers/records.js';

describe('observe.logs options', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await startMockOpenAI();
  });
  after(async () => {
    await mock?.close();
  });

  describe('recordBodies', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startObserved({ logs: { recordBodies: true, maxBodyBytes: 2048 } });
    });
    after(async () => {
      await gw?.stop();
    });

    const detail = async (traceId: string) => {
      await logService(gw).flush();
      const listed = (await getJson(gw.url, `/v1/logs?trace_id=${traceId}`)).json.data[0];
      return (await getJson(gw.url, `/v1/logs/${listed.id}`)).json;
    };

    it('records the request and answer bodies with secrets redacted', async () => {
      const body = { ...CHAT_BODY, messages: [{ role: 'user', content: 'use sk-proj-abcdefghijklmnopqrstuvwxyz123456 please' }], user: 'u1' };
      const reply = await postJson(gw.url, '/v1/chat/completions', body, mockHeaders(mock, { 'x-gw-trace-id': 'trace-bodies' }));
      expect(reply.status).to.equal(200);
      const log = await detail('trace-bodies');
      expect(log.log_format).to.equal('openai');
      expect(log.request.body.messages[0].content).to.equal('use [redacted] please');
      expect(log.request.body.user).to.equal('u1');
      // The mock echoes the message: the key is masked in the recorded answer too.
      expect(reply.json.choices[0].message.content).to.contain('sk-proj-');
      expect(log.response.body.choices[0].message.content).to.equal('echo: use [redacted] please');
      expect(log.response.body.usage).to.deep.equal(reply.json.usage);
      expect(JSON.stringify(log)).not.to.contain('sk-test');
    });

    it('records a streamed answer as its event text, and cuts bodies over maxBodyBytes', async () => {
      const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', defaultHeaders: mockHeaders(mock, { 'x-gw-trace-id': 'trace-stream-body' }), maxRetries: 0 });
      for await (const _ of await client.chat.completions.create({ ...CHAT_BODY, messages: [{ role: 'user', content: 'hi' }], stream: true })) { /* read it all */ }
      const streamed = await detail('trace-stream-body');
      expect(streamed.response.body).to.be.a('string').and.to.contain('chat.completion.chunk').and.to.contain('data: [DONE]');

      const long = { ...CHAT_BODY, messages: [{ role: 'user', content: 'x'.repeat(5000) }] };
      await postJson(gw.url, '/v1/chat/completions', long, mockHeaders(mock, { 'x-gw-trace-id': 'trace-long-body' }));
      const cut = await detail('trace-long-body');
      expect(cut.request.body).to.be.a('string').and.to.match(/…\[truncated\]$/);
      expect(cut.request.body.length).to.be.at.most(2048 + 20);
    });
  });

  describe('retention', () => {
    let gw: TestGateway;
    afterEach(async () => {
      await gw?.stop();
    });

    it('deletes logs past the retention age (sweep called directly)', async () => {
      gw = await startObserved();
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await logService(gw).flush();
      expect(await logService(gw).sweep()).to.equal(0);
      expect((await getJson(gw.url, '/v1/logs')).json.total_count).to.equal(1);
      expect(await logService(gw).sweep(Date.now() + 31 * 24 * 3600_000)).to.equal(1);
      expect((await getJson(gw.url, '/v1/logs')).json.total_count).to.equal(0);
    });

    it('runs the sweep on its own timer', async () => {
      // 0.000002 days ≈ 173 ms.
      gw = await startObserved({ logs: { retentionDays: 0.000002, retentionSweepIntervalMs: 50, flushIntervalMs: 10 } });
      await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      await until(async () => logService(gw).stats().written === 1);
      await until(async () => (await getJson(gw.url, '/v1/logs')).json.total_count === 0, 3000);
    });
  });

  describe('routes', () => {
    let gw: TestGateway;
    afterEach(async () => {
      await gw?.stop();
    });

    it('logs inference routes only by default, every route but its own with routes: all', async () => {
      gw = await startObserved();
      await getJson(gw.url, '/health');
      await getJson(gw.url, '/v1/logs');
      await logService(gw).flush();
      expect(logService(gw).stats().written).to.equal(0);
      await gw.stop();

      gw = await startObserved({ logs: { routes: 'all' } });
      await getJson(gw.url, '/v1/logs');
      await getJson(gw.url, '/v1/logs/groups/model');
      await getJson(gw.url, '/v1/prompts/nope');
      await logService(gw).flush();
      const rows = (await getJson(gw.url, '/v1/logs')).json;
      expect(rows.data.map((l: { path: string }) => l.path)).to.deep.equal(['/v1/prompts/:promptId']);
    });
  });

  it('writes what is still queued when the gateway shuts down', async () => {
    const gw = await startObserved({ logs: { flushIntervalMs: 60_000 } });
    try {
      for (let i = 0; i < 3; i++) await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, mockHeaders(mock));
      expect(logService(gw).stats()).to.include({ queued: 3, written: 0 });
      await gw.gateway.close();
      expect(await withRecords(gw.dataDir, (db) => db.get('SELECT COUNT(*) AS n FROM request_logs'))).to.deep.equal({ n: 3 });
    } finally {
      await gw.stop();
    }
  });

  it('refuses bad options at boot', async () => {
    for (const options of [{ queueCapacity: 0 }, { batchSize: 100_000 }, { retentionDays: 0 }, { routes: 'some' }, { colour: 'red' }]) {
      let error: Error | undefined;
      try {
        const gw = await startGateway({ plugins: [{ use: RequestLogsPlugin, options }] });
        await gw.stop();
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message, JSON.stringify(options)).to.match(/observe\.logs.*invalid options/);
    }
  });
});
