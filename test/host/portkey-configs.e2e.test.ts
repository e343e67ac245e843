/**
 * What docs/portkey-configs.md promises, checked end to end: a Portkey-style config routes
 * unchanged; the renamed credential fields and headers are refused naming them; `x-portkey-*`
 * headers are neither read nor forwarded; gw's response headers stand in for Portkey's.
 */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

describe('configs carried over from Portkey (docs/portkey-configs.md)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  const target = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-test', custom_host: `${mock.url}/v1`, ...extra });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway();
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('a Portkey config (fallback, retry, cache, request_timeout, override_params, strict_open_ai_compliance, weights) routes as written', async () => {
    const config = {
      strategy: { mode: 'fallback', on_status_codes: [503] },
      retry: { attempts: 1, on_status_codes: [429], use_retry_after_headers: true },
      cache: { mode: 'simple', max_age: 60 },
      request_timeout: 10_000,
      strict_open_ai_compliance: true,
      targets: [
        target({ override_params: { model: 'gpt-4o' }, weight: 1 }),
        { strategy: { mode: 'loadbalance' }, targets: [target({ weight: 0.7 }), target({ weight: 0.3 })] },
      ],
    };
    mock.next({ status: 503 });
    const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, messages: [{ role: 'user', content: 'carried over' }] }, configHeaders(config));
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.headers.get('x-gw-last-used-option-index')).to.match(/^config\.targets\[1\]\.targets\[[01]\]$/);
    expect(reply.headers.get('x-gw-cache-status')).to.equal('MISS');
    expect(reply.headers.get('x-gw-retry-attempt-count')).to.equal('0');
    expect(reply.headers.get('x-gw-trace-id')).to.be.a('string');
    expect(reply.headers.get('x-gw-provider')).to.equal('openai');
    expect(mock.requests[0]!.body.model).to.equal('gpt-4o');
  });

  it('the old credential names are refused, naming the field and the header', async () => {
    const field = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ provider: 'bedrock', aws_region: 'us-east-1', aws_access_key_id: 'A', aws_secret_access_key: 'S' }));
    expect(field.status).to.equal(400);
    expect(field.json.error.message).to.match(/^config\.aws_(region|access_key_id|secret_access_key): is not an allowed key$/);
    const openaiOrg = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(target({ openai_organization: 'org-1' })));
    expect(openaiOrg.json.error.message).to.equal('config.openai_organization: is not an allowed key');
    const header = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(target(), { 'x-gw-aws-region': 'us-east-1' }));
    expect(header.status).to.equal(400);
    expect(header.json.error.message).to.equal('header x-gw-aws-region: is not a known x-gw- header or config field');
    expect(mock.requests).to.have.length(0);
  });

  it('the renamed ones are taken: vendorD_organization reaches OpenAI as its organization header', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(target({ vendorD_organization: 'org-1' })));
    expect(reply.status, reply.text).to.equal(200);
    expect(mock.requests[0]!.headers['openai-organization']).to.equal('org-1');
  });

  it('x-portkey-* headers are neither read nor forwarded to the provider', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(target(), {
      'x-portkey-trace-id': 'pk-trace', 'x-portkey-metadata': '{"a":"b"}', 'x-portkey-api-key': 'pk-key', 'x-portkey-config': '{"retry":{"attempts":3}}',
    }));
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.headers.get('x-gw-trace-id')).to.not.equal('pk-trace');
    expect(Object.keys(mock.requests[0]!.headers).filter((h) => h.startsWith('x-portkey-'))).to.deep.equal([]);
    expect(reply.headers.get('x-portkey-last-used-option-params')).to.equal(null);
  });

  it('a Portkey config id means nothing to gw: 400 naming it', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': 'pc-abc123' });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.contain('no stored config "pc-abc123"');
  });
});
