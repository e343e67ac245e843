/** route.passthrough end to end: the client's bytes reach the provider untouched. */
import { expect } from 'chai';
import OpenAI from 'openai';
import { definePlugin, Stage } from '../../../../core/index.js';
import ForwardHeadersPlugin from '../../../../plugins/routing/forward-headers/index.js';
import ParamsPlugin from '../../../../plugins/routing/params/index.js';
import PassthroughPlugin from '../../../../plugins/routing/passthrough/index.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';

const CHAT = '/v1/chat/completions';

/** A chat body our validation refuses (temperature 5, an unknown key), in bytes a re-serialisation would change. */
const INVALID_CHAT = '{ "model" : "gpt-4o-mini",\n  "messages":[{"role":"user","content":"h\\u00e9llo ✓"}],\n  "temperature": 5, "x_vendor_knob": {"b":1,"a":2}, "n": 1.0 }';

/** A test plugin that replaces every target's body, as a careless shaping plugin would. */
const BodyReplacer = definePlugin({
  id: 'test.body-replacer',
  apply(api) {
    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.DEFAULT }, (attempt) => {
      attempt.body = { ...attempt.body, replaced: true };
      return undefined;
    });
  },
});

describe('route.passthrough (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const openai = () => ({ provider: 'openai', api_key: 'sk-config', custom_host: `${mock.url}/v1` });
  const direct = (extra: Record<string, string> = {}) => ({
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'openai',
    'x-gw-custom-host': `${mock.url}/v1`,
    authorization: 'Bearer sk-client',
    ...extra,
  });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [PassthroughPlugin, ParamsPlugin, ForwardHeadersPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('forwards a body our validation refuses, byte for byte, with the config\'s provider', async () => {
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ ...openai(), passthrough: true }));
    expect(res.status, res.text).to.equal(200);
    expect(res.json.object).to.equal('chat.completion');
    expect(mock.requests).to.have.length(1);
    expect(mock.requests[0]!.rawBody).to.equal(INVALID_CHAT);
    expect(mock.requests[0]!.path).to.equal('/v1/chat/completions');
    expect(mock.requests[0]!.headers).to.include({ authorization: 'Bearer sk-config', 'content-type': 'application/json' });
  });

  it('(control) the same body without passthrough is a 400 that never reaches the provider', async () => {
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders(openai()));
    expect(res.status).to.equal(400);
    expect(res.json.error).to.include({ code: 'invalid_body', param: 'temperature' });
    expect(mock.requests).to.have.length(0);
  });

  it('takes the provider from x-gw-provider (and its key from Authorization) when the config names none', async () => {
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, direct({ 'x-gw-config': JSON.stringify({ passthrough: true }) }));
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('x-gw-provider')).to.equal('openai');
    expect(mock.requests[0]!.rawBody).to.equal(INVALID_CHAT);
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-client');
  });

  it('prefers the config\'s own provider to x-gw-provider', async () => {
    const headers = direct({ 'x-gw-provider': 'not-a-provider', 'x-gw-config': JSON.stringify({ ...openai(), passthrough: true }) });
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, headers);
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-config');
  });

  it('refuses a passthrough config with no provider from the config or the request', async () => {
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ passthrough: true }));
    expect(res.status).to.equal(400);
    expect(res.json.error).to.include({ param: 'provider', code: 'invalid_config' });
    expect(res.json.error.message).to.match(/^config\.provider: is required with passthrough/);
  });

  it('works in direct mode from the OpenAI SDK (x-gw-passthrough: true)', async () => {
    const client = new OpenAI({
      apiKey: 'sk-sdk',
      baseURL: gw.url + '/v1',
      maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1`, 'x-gw-passthrough': 'true' },
    });
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }], temperature: 5, vendor_flag: 'on' };
    const completion = await client.chat.completions.create(params);
    expect(completion.choices[0]!.message.role).to.equal('assistant');
    expect(mock.requests[0]!.body).to.deep.equal(params);
    expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-sdk');

    const strict = new OpenAI({ apiKey: 'sk-sdk', baseURL: gw.url + '/v1', maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` } });
    const error = await strict.chat.completions.create(params).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(OpenAI.BadRequestError);
    expect(mock.requests).to.have.length(1);
  });

  it('passes provider errors back with the provider\'s status, message, type, code and param', async () => {
    const envelope = { error: { message: 'temperature must be at most 2', type: 'invalid_request_error', param: 'temperature', code: 'invalid_value' } };
    mock.next({ status: 400, body: envelope }, { status: 429, headers: { 'retry-after': '7' } });
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ ...openai(), passthrough: true }));
    expect(res.status).to.equal(400);
    expect(res.json.error).to.deep.equal(envelope.error);
    expect(res.json.provider).to.equal('openai');
    expect(res.headers.get('x-request-id')).to.match(/^req_mock_/);

    const limited = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ ...openai(), passthrough: true }));
    expect(limited.status).to.equal(429);
    expect(limited.json.error.code).to.equal('rate_limit_exceeded');
    expect(limited.headers.get('retry-after')).to.equal('7');
  });

  it('streams: the bytes go out untouched and the events come back', async () => {
    const body = '{"stream":true,"model":"gpt-4o-mini","temperature":9,"messages":[{"role":"user","content":"hi"}]}';
    const res = await postJson(gw.url, CHAT, body, configHeaders({ ...openai(), passthrough: true }));
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(res.text.trimEnd().endsWith('data: [DONE]')).to.equal(true);
    expect(mock.requests[0]!.rawBody).to.equal(body);
  });

  it('skips endpoint normalisation (no default moderation model is added)', async () => {
    const body = '{"input":"hello"}';
    const res = await postJson(gw.url, '/v1/moderations', body, configHeaders({ ...openai(), passthrough: true }));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.rawBody).to.equal(body);
    await postJson(gw.url, '/v1/moderations', body, configHeaders(openai()));
    expect(mock.requests[1]!.body).to.have.property('model', 'text-moderation-latest');
  });

  it('a passthrough target ignores params inherited from its parent', async () => {
    const body = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi","name":"a"}],  "temperature":0.5}';
    const config = {
      strategy: { mode: 'single' },
      override_params: { temperature: 0 },
      default_params: { seed: 1 },
      drop_params: ['messages.0.name'],
      targets: [{ ...openai(), passthrough: true }],
    };
    const res = await postJson(gw.url, CHAT, body, configHeaders(config));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.rawBody).to.equal(body);
  });

  it('allows forward_headers (headers are not the body)', async () => {
    const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ ...openai(), passthrough: true, forward_headers: ['X-Vendor'] }, { 'x-vendor': 'v' }));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.headers['x-vendor']).to.equal('v');
    expect(mock.requests[0]!.rawBody).to.equal(INVALID_CHAT);
  });

  it('keeps the client body even when another plugin replaced it', async () => {
    const local = await startGateway({ plugins: [PassthroughPlugin, BodyReplacer] });
    try {
      const body = '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}]}';
      await postJson(local.url, CHAT, body, configHeaders({ ...openai(), passthrough: true }));
      expect(mock.requests[0]!.rawBody).to.equal(body);
      // (control) without passthrough the replacement goes out.
      await postJson(local.url, CHAT, body, configHeaders(openai()));
      expect(mock.requests[1]!.body).to.have.property('replaced', true);
    } finally {
      await local.stop();
    }
  });

  describe('refused combinations (400 from the config rules)', () => {
    const hook = { id: 'h', checks: [{ id: 'default.wordCount', parameters: {} }] };
    const cases: Array<[string, Record<string, unknown>]> = [
      ['override_params', { override_params: { temperature: 0 } }],
      ['strategy and targets', { strategy: { mode: 'single' }, targets: [{ provider: 'openai', api_key: 'k' }] }],
      ['input_guardrails', { input_guardrails: ['g1'] }],
      ['output_guardrails', { output_guardrails: ['g1'] }],
      ['before_request_hooks', { before_request_hooks: [hook] }],
      ['after_request_hooks', { after_request_hooks: [hook] }],
      ['default_params', { default_params: { temperature: 0 } }],
      ['drop_params', { drop_params: ['temperature'] }],
    ];
    for (const [what, extra] of cases) {
      it(`refuses passthrough with ${what}`, async () => {
        const res = await postJson(gw.url, CHAT, INVALID_CHAT, configHeaders({ ...openai(), passthrough: true, ...extra }));
        expect(res.status).to.equal(400);
        expect(res.json.error).to.include({ type: 'invalid_request_error', code: 'invalid_config', param: what.split(' ')[0] });
        expect(res.json.error.message).to.match(/cannot be combined with passthrough/);
        expect(res.json.provider).to.equal('gw');
        expect(mock.requests).to.have.length(0);
      });
    }

    it('names the path of a nested passthrough target', async () => {
      const config = { strategy: { mode: 'single' }, targets: [{ ...openai(), passthrough: true, drop_params: ['x'] }] };
      const res = await postJson(gw.url, CHAT, INVALID_CHAT.replace('"temperature": 5', '"temperature": 1'), configHeaders(config));
      expect(res.status).to.equal(400);
      expect(res.json.error.param).to.equal('targets.0.drop_params');
    });
  });
});
