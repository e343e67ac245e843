/** One log line per request with the documented fields, and no secret in any line. */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, createLogger, serve, type Gateway, type RunningServer } from '../../../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, TEST_API_KEY } from '../../../helpers/gateway.js';

describe('observe.access-log', () => {
  let mock: MockOpenAI;
  let gateway: Gateway;
  let running: RunningServer;
  let dataDir: string;
  const lines: string[] = [];

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-log-'));
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    gateway = await createGateway({ env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY }, logger: createLogger('info', sink) });
    running = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 1000 });
  });
  after(async () => {
    await running.stop();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const requestLines = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('writes one line per request with trace id, route, provider, status and latency', async () => {
    const before = requestLines().length;
    const reply = await postJson(running.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-trace-id': 'trace-log-1' }));
    await postJson(running.url, '/v1/chat/completions', { model: 'x', messages: [] }, directHeaders(mock));
    await settle();
    const logged = requestLines().slice(before);
    expect(logged).to.have.length(2);
    expect(logged[0]).to.include({ traceId: 'trace-log-1', method: 'POST', route: '/v1/chat/completions', provider: 'openai', status: 200, target: 'config' });
    expect(logged[0].latencyMs).to.be.a('number').and.to.be.greaterThan(0);
    expect(logged[1]).to.include({ status: 400 });
    expect(reply.status).to.equal(200);
  });

  it('never writes a gateway key, a provider key or a config secret', async () => {
    await postJson(running.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ provider: 'openai', api_key: 'sk-config-secret', custom_host: `${mock.url}/v1` }));
    await postJson(running.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { authorization: 'Bearer sk-header-secret', 'x-gw-api-key': 'gw-wrong-secret' }));
    mock.next({ status: 500 });
    await postJson(running.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { authorization: 'Bearer sk-header-secret' }));
    await settle();
    const all = lines.join('\n');
    for (const secret of [TEST_API_KEY, 'sk-config-secret', 'sk-header-secret', 'gw-wrong-secret']) expect(all).not.to.contain(secret);
  });

  it('redacts secret fields on other log lines', () => {
    const out: string[] = [];
    const logger = createLogger('info', new Writable({ write(c, _e, d) { out.push(String(c)); d(); } }));
    logger.info({ headers: { authorization: 'Bearer sk-x', 'x-gw-api-key': 'gw-x' }, target: { api_key: 'sk-y' } }, 'debugging');
    logger.flush();
    const line = out.join('');
    expect(line).not.to.contain('sk-x');
    expect(line).not.to.contain('gw-x');
    expect(line).not.to.contain('sk-y');
    expect(line).to.contain('[redacted]');
  });
});
