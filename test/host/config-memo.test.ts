/**
 * Configs resolved from the same headers are one frozen object that the kernel validates once;
 * other headers (another key, another config) are validated on their own, and a bad config is
 * refused every time.
 */
import { expect } from 'chai';
import type { Plugin, PluginApi } from '../../core/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, type TestGateway } from '../helpers/gateway.js';

/** Counts validateConfig calls at the root of a config, and wrapAttempt calls. */
const counter = { roots: 0, wraps: 0 };
class CountingPlugin implements Plugin {
  static readonly manifest = { id: 'test.count-validation', description: 'counts config validations' };
  apply(api: PluginApi): void {
    api.hooks.validateConfig.tap(api.id, (_node, path) => {
      if (path === '') counter.roots++;
    });
    api.hooks.wrapAttempt.tap(api.id, (run) => {
      counter.wraps++;
      return run;
    });
  }
}

describe('config validation memo', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [CountingPlugin] });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });
  beforeEach(() => {
    counter.roots = 0;
    counter.wraps = 0;
  });

  it('validates direct-mode headers once for repeated requests, again for another provider key', async () => {
    for (let i = 0; i < 3; i++) expect((await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock))).status).to.equal(200);
    expect(counter.roots).to.equal(1);
    expect(counter.wraps, 'the wrapped call of the kept target is re-used').to.equal(1);
    const other = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { authorization: 'Bearer sk-other' }));
    expect(other.status).to.equal(200);
    expect(mock.requests.at(-1)!.headers['authorization']).to.equal('Bearer sk-other');
    expect(counter.roots).to.equal(2);
  });

  it('wraps the call of each target of a kept fallback config once', async () => {
    const headers = configHeaders({
      strategy: { mode: 'fallback' },
      targets: [{ provider: 'openai', api_key: 'sk-a', custom_host: 'http://127.0.0.1:1/v1' }, { provider: 'openai', api_key: 'sk-b', custom_host: `${mock.url}/v1` }],
    });
    for (let i = 0; i < 3; i++) expect((await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers)).status).to.equal(200);
    expect(counter.wraps).to.equal(2);
  });

  it('validates an x-gw-config once, with header fields beneath it', async () => {
    const config = { retry: { attempts: 1 }, custom_host: `${mock.url}/v1` };
    const headers = configHeaders(config, { 'x-gw-provider': 'openai', authorization: 'Bearer sk-test' });
    for (let i = 0; i < 3; i++) expect((await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers)).status).to.equal(200);
    expect(counter.roots).to.equal(1);
  });

  it('refuses an invalid config on every request', async () => {
    const headers = configHeaders({ provider: 'openai', api_key: 'sk', custom_host: `${mock.url}/v1`, retry: { attempts: 99 } });
    for (let i = 0; i < 2; i++) {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.match(/retry\.attempts/);
    }
  });
});
