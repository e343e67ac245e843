/**
 * admin.configs end to end: a stored config's id or slug in x-gw-config, with its provider an
 * `@slug` integration (or credentials from the request headers beneath it), served from memory,
 * new versions and deletions seen at once.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import sinon from 'sinon';
import { Services } from '../../../../core/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { as, call, chatHeaders, lastKey, openaiIntegration, startAdminGateway } from '../integrations/harness.js';

const KEY_A = 'sk-stored-config-aaaaaaaa';
const KEY_B = 'sk-stored-config-bbbbbbbb';

describe('admin.configs: stored configs in x-gw-config', () => {
  let gw: TestGateway;
  let mockA: MockOpenAI;
  let mockB: MockOpenAI;
  let id: string;

  before(async () => {
    [mockA, mockB] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    gw = await startAdminGateway();
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockA, 'acct-a', KEY_A));
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mockB, 'acct-b', KEY_B));
    id = (await call(gw, 'POST', '/v1/configs', { slug: 'main', config: { provider: '@acct-a', override_params: { temperature: 0.25 } } })).json.id;
  });
  after(async () => {
    await gw?.stop();
    await Promise.all([mockA?.close(), mockB?.close()]);
  });
  beforeEach(() => {
    mockA.reset();
    mockB.reset();
  });

  const chat = (headers: Record<string, string>) => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, chatHeaders(headers));

  it('routes by a stored config named by id or slug, with the integration\'s key', async () => {
    for (const ref of [id, 'main']) {
      const res = await chat({ 'x-gw-config': ref });
      expect(res.status, res.text).to.equal(200);
      expect(lastKey(mockA)).to.equal(KEY_A);
      expect(mockA.requests.at(-1)!.body.temperature).to.equal(0.25);
    }
  });

  it('works for the OpenAI SDK', async () => {
    const client = new OpenAI({ apiKey: 'sk-ignored', baseURL: gw.url + '/v1', maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': 'main' } });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.object).to.equal('chat.completion');
    expect(lastKey(mockA)).to.equal(KEY_A);
  });

  it('puts the request\'s header fields beneath it, as for a JSON config', async () => {
    // A stored config without credentials takes the provider key from the request.
    await call(gw, 'POST', '/v1/configs', { slug: 'bring-your-key', config: { provider: 'openai', custom_host: `${mockB.url}/v1`, retry: { attempts: 1 } } });
    const res = await chat({ 'x-gw-config': 'bring-your-key', authorization: 'Bearer sk-from-client', 'x-gw-metadata': '{"team":"a"}' });
    expect(res.status, res.text).to.equal(200);
    expect(lastKey(mockB)).to.equal('sk-from-client');
    // A stored config naming an integration takes none of the request's provider credentials.
    const named = await chat({ 'x-gw-config': 'main', 'x-gw-provider': 'openai', authorization: 'Bearer sk-from-client', 'x-gw-custom-host': `${mockB.url}/v1` });
    expect(named.status).to.equal(200);
    expect(lastKey(mockA)).to.equal(KEY_A);
    expect(mockB.requests).to.have.length(1);
    // Other header fields apply: a request_timeout from the header.
    mockA.next({ delayMs: 300 });
    const slow = await chat({ 'x-gw-config': 'main', 'x-gw-request-timeout': '50' });
    expect(slow.status).to.equal(408);
  });

  it('refuses an unknown config id with a 400 naming it, and a bad header field as for JSON configs', async () => {
    const res = await chat({ 'x-gw-config': 'pc-unknown' });
    expect(res.status).to.equal(400);
    expect(res.json.error).to.deep.include({ code: 'invalid_config', message: 'config: no stored config "pc-unknown" (x-gw-config is neither a JSON object nor a known config id)' });
    const header = await chat({ 'x-gw-config': 'main', 'x-gw-request-timeout': 'soon' });
    expect(header.status).to.equal(400);
    expect(header.json.error.message).to.equal('header x-gw-request-timeout: must be an integer');
  });

  it('uses a new version on the next request, and refuses a deleted config at once', async () => {
    await call(gw, 'POST', '/v1/configs', { slug: 'moving', config: { provider: '@acct-a' } });
    await chat({ 'x-gw-config': 'moving' });
    expect(mockA.requests).to.have.length(1);
    await call(gw, 'PUT', '/v1/configs/moving', { config: { provider: '@acct-b' } });
    await chat({ 'x-gw-config': 'moving' });
    expect(lastKey(mockB)).to.equal(KEY_B);
    await call(gw, 'DELETE', '/v1/configs/moving');
    const res = await chat({ 'x-gw-config': 'moving' });
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.match(/no stored config "moving"/);
    // A config created under a remembered-unknown id is found at once.
    await call(gw, 'POST', '/v1/configs', { slug: 'moving', config: { provider: '@acct-b' } });
    expect((await chat({ 'x-gw-config': 'moving' })).status).to.equal(200);
  });

  it('applies every plugin rule when a stored config is used', async () => {
    // The schema accepts an inline guardrail with any check id; the guardrail runner does not.
    await call(gw, 'POST', '/v1/configs', { slug: 'guarded', config: { provider: '@acct-a', input_guardrails: [{ id: 'g', 'acme.unknown': {} }] } });
    const res = await chat({ 'x-gw-config': 'guarded' });
    expect(res.status).to.equal(400);
    expect(res.json.error.message).to.match(/^config\.input_guardrails\.0\.acme\.unknown: unknown check "acme\.unknown"/);
  });

  it('refuses a workspace\'s config to keys of another workspace (403)', async () => {
    await call(gw, 'POST', '/v1/configs', { slug: 'ws-config', workspace_id: 'ws-1', config: { provider: '@acct-a' } });
    expect((await chat({ 'x-gw-config': 'ws-config', ...as({ workspaceId: 'ws-1' }) })).status).to.equal(200);
    const other = await chat({ 'x-gw-config': 'ws-config', ...as({ workspaceId: 'ws-2' }) });
    expect(other.status).to.equal(403);
    expect(other.json.error.message).to.equal('config "ws-config" belongs to another workspace than the API key\'s (ws-2)');
    expect((await chat({ 'x-gw-config': 'main', ...as({ workspaceId: 'ws-2' }) })).status).to.equal(200);
  });

  it('reads neither configs nor integrations from the store once they were used', async () => {
    const store = gw.gateway.runtime.services.get(Services.Records);
    await chat({ 'x-gw-config': 'main' });
    const get = sinon.spy(store, 'get');
    const all = sinon.spy(store, 'all');
    try {
      for (let i = 0; i < 5; i++) expect((await chat({ 'x-gw-config': 'main' })).status).to.equal(200);
      const queries = [...get.args, ...all.args].map((a) => String(a[0]));
      expect(queries.filter((q) => /configs|config_versions|integrations/.test(q))).to.deep.equal([]);
    } finally {
      get.restore();
      all.restore();
    }
  });
});
