/** route.forward-headers end to end: which client headers reach the provider. */
import { expect } from 'chai';
import OpenAI from 'openai';
import ForwardHeadersPlugin from '../../../../plugins/routing/forward-headers/index.js';
import FallbackStrategy from '../../../../plugins/strategies/fallback/index.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';

const CHAT = '/v1/chat/completions';

describe('route.forward-headers (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const openai = () => ({ provider: 'openai', api_key: 'sk-config', custom_host: `${mock.url}/v1` });
  const received = (i = 0) => mock.requests[i]!.headers;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [ForwardHeadersPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('forwards the named headers, matching names case-insensitively, and only those', async () => {
    const config = { ...openai(), forward_headers: ['X-Custom-Trace', 'OPENAI-BETA', 'x-absent'] };
    const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(config, {
      'x-custom-trace': 'abc', 'OpenAI-Beta': 'assistants=v2', 'x-not-named': '1',
    }));
    expect(res.status, res.text).to.equal(200);
    expect(received()).to.include({ 'x-custom-trace': 'abc', 'openai-beta': 'assistants=v2' });
    expect(received()).to.not.have.any.keys('x-not-named', 'x-absent');
  });

  it('sends no client header without forward_headers', async () => {
    const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(openai(), { 'x-custom-trace': 'abc' }));
    expect(res.status, res.text).to.equal(200);
    expect(received()).to.not.have.property('x-custom-trace');
  });

  it('takes the list from x-gw-forward-headers (a comma list) in direct mode', async () => {
    const headers = directHeaders(mock, { 'x-gw-forward-headers': 'X-One, x-two', 'x-one': '1', 'x-two': '2', 'x-three': '3' });
    const res = await postJson(gw.url, CHAT, CHAT_BODY, headers);
    expect(res.status, res.text).to.equal(200);
    expect(received()).to.include({ 'x-one': '1', 'x-two': '2' });
    expect(received()).to.not.have.property('x-three');
  });

  it('never lets a forwarded header replace a header the adapter sets', async () => {
    const config = { ...openai(), vendorD_organization: 'org-config', forward_headers: ['OpenAI-Organization', 'Content-Type'] };
    const extra = { 'openai-organization': 'org-client', 'content-type': 'application/json; charset=latin1' };
    const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(config, extra));
    expect(res.status, res.text).to.equal(200);
    expect(received()).to.include({ 'openai-organization': 'org-config', 'content-type': 'application/json', authorization: 'Bearer sk-config' });

    // Where the adapter sets nothing, the client's value goes through.
    const { vendorD_organization: _org, ...withoutOrg } = config;
    await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(withoutOrg, extra));
    expect(received(1)).to.include({ 'openai-organization': 'org-client' });
  });

  it('children inherit forward_headers from their parent', async () => {
    const config = { strategy: { mode: 'single' }, forward_headers: ['x-inherited'], targets: [openai()] };
    const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(config, { 'x-inherited': 'yes' }));
    expect(res.status, res.text).to.equal(200);
    expect(received()).to.include({ 'x-inherited': 'yes' });
  });

  it('works for an OpenAI SDK client\'s default headers', async () => {
    const client = new OpenAI({
      apiKey: 'sk-ignored',
      baseURL: gw.url + '/v1',
      maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify({ ...openai(), forward_headers: ['X-Tenant'] }), 'X-Tenant': 'acme' },
    });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.object).to.equal('chat.completion');
    expect(received()).to.include({ 'x-tenant': 'acme', authorization: 'Bearer sk-config' });
  });

  it('gives each target of a fallback its own headers', async function () {
    const other = await startMockOpenAI();
    const local = await startGateway({ plugins: [ForwardHeadersPlugin, FallbackStrategy] });
    try {
      mock.next({ status: 500 });
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          { ...openai(), forward_headers: ['x-a'] },
          { provider: 'openai', api_key: 'sk-b', custom_host: `${other.url}/v1`, forward_headers: ['x-b'] },
        ],
      };
      const res = await postJson(local.url, CHAT, CHAT_BODY, configHeaders(config, { 'x-a': 'A', 'x-b': 'B' }));
      expect(res.status, res.text).to.equal(200);
      expect(received()).to.include({ 'x-a': 'A' }).and.not.have.property('x-b');
      expect(other.requests[0]!.headers).to.include({ 'x-b': 'B' }).and.not.have.property('x-a');
    } finally {
      await local.stop();
      await other.close();
    }
  });

  describe('refused names (400 when the config is validated)', () => {
    const refused = ['x-gw-api-key', 'X-GW-Trace-Id', 'Authorization', 'x-forwarded-for', 'Forwarded', 'host', 'content-length', 'Connection', 'te', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'bad name'];
    for (const name of refused) {
      it(`refuses "${name}"`, async () => {
        const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders({ ...openai(), forward_headers: ['x-ok', name] }));
        expect(res.status).to.equal(400);
        expect(res.json.error).to.include({ param: 'forward_headers.1', code: 'invalid_config', type: 'invalid_request_error' });
        expect(res.json.error.message).to.include(`config.forward_headers.1: "${name}"`);
        expect(mock.requests).to.have.length(0);
      });
    }

    it('refuses a bad name given by x-gw-forward-headers', async () => {
      const res = await postJson(gw.url, CHAT, CHAT_BODY, directHeaders(mock, { 'x-gw-forward-headers': 'x-ok,X-Forwarded-Host' }));
      expect(res.status).to.equal(400);
      expect(res.json.error.param).to.equal('forward_headers.1');
      expect(res.json.error.message).to.match(/proxy headers are never passed/);
    });

    it('names the path of a nested target', async () => {
      const config = { strategy: { mode: 'single' }, targets: [{ ...openai(), forward_headers: ['x-gw-config'] }] };
      const res = await postJson(gw.url, CHAT, CHAT_BODY, configHeaders(config));
      expect(res.status).to.equal(400);
      expect(res.json.error.param).to.equal('targets.0.forward_headers.0');
    });
  });
});
