/**
 * GW_JSON_MAX_DEPTH through a real gateway: bodies and JSON headers nested too deep are a 400
 * naming the limit (never a 500 from a stack overflow, nor a 502), on every route family that
 * walks JSON recursively, on both front ends; the deepest allowed document still passes; a 9 MB
 * body nested 4.5 million levels is refused at once while another request is served.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { startAnthropicMock } from '../fixtures/mock-anthropic.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

const RULE = 'nesting deeper than 128 levels (GW_JSON_MAX_DEPTH)';
const BODY_ERROR = { message: `body: ${RULE}`, type: 'invalid_request_error', param: null, code: 'invalid_body' };

/** `{"a":{"a":...{"a":1}...}}`, `depth` objects deep. */
function deepObject(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{"a":1}' + '}'.repeat(depth - 1);
}

/** A JSON body with `value` (raw JSON text) at `key` beside a small chat request. */
function chatWith(key: string, value: string): string {
  return `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"${key}":${value}}`;
}

describe('JSON nesting limit (end to end)', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway();
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  const authed = { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY };

  describe('bodies nested 5,000 levels are a 400 naming the limit', () => {
    const cases: [string, string, () => Record<string, string>][] = [
      ['chat completions with override_params in the body', chatWith('override_params', deepObject(5000)), () => directHeaders(mock)],
      ['responses', `{"model":"gpt-4o-mini","input":[{"role":"user","content":${deepObject(5000)}}]}`, () => directHeaders(mock)],
      ['prompt render', `{"variables":${deepObject(5000)}}`, () => authed],
      ['configs', `{"name":"deep","config":${deepObject(5000)}}`, () => authed],
      ['guardrails', `{"name":"deep","checks":[{"id":"default.regexMatch","parameters":${deepObject(5000)}}]}`, () => authed],
    ];
    const paths: Record<string, string> = {
      'chat completions with override_params in the body': '/v1/chat/completions',
      responses: '/v1/responses',
      'prompt render': '/v1/prompts/pp-deep/render',
      configs: '/v1/configs',
      guardrails: '/v1/guardrails',
    };
    for (const [name, body, headers] of cases) {
      it(name, async () => {
        const res = await postJson(gw.url, paths[name]!, body, headers());
        expect(res.status, res.text.slice(0, 300)).to.equal(400);
        expect(res.json).to.deep.equal({ error: BODY_ERROR, provider: 'gw' });
        expect(mock.requests.length).to.equal(0);
      });
    }

    it('on the fetch front end too', async () => {
      const res = await gw.gateway.fetch(new Request('http://gw.test/v1/chat/completions', {
        method: 'POST', headers: directHeaders(mock), body: chatWith('override_params', deepObject(5000)),
      }));
      expect(res.status).to.equal(400);
      expect(await res.json()).to.deep.equal({ error: BODY_ERROR, provider: 'gw' });
    });
  });

  it('a document exactly at the limit passes: the body object and 127 levels inside it', async () => {
    const res = await postJson(gw.url, '/v1/chat/completions', chatWith('override_marker', deepObject(127)), directHeaders(mock));
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    const tooDeep = await postJson(gw.url, '/v1/chat/completions', chatWith('override_marker', deepObject(128)), directHeaders(mock));
    expect(tooDeep.status).to.equal(400);
    expect(tooDeep.json.error).to.deep.equal(BODY_ERROR);
  });

  describe('JSON headers nested too deep are a 400 naming the header and the limit', () => {
    const deepArray = '['.repeat(1000) + ']'.repeat(1000);

    it('x-gw-config', async () => {
      const header = `{"provider":"openai","api_key":"sk-test","custom_host":"${mock.url}/v1","override_params":{"x":${deepArray}}}`;
      const res = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { ...configHeaders({}), 'x-gw-config': header });
      expect(res.status).to.equal(400);
      expect(res.json.error).to.deep.equal({ message: `header x-gw-config: ${RULE}`, type: 'invalid_request_error', param: 'x-gw-config', code: 'invalid_header' });
      expect(mock.requests.length).to.equal(0);
    });

    it('an object config field sent as x-gw-<field>', async () => {
      const res = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-override-params': `{"x":${deepArray}}` }));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal(`header x-gw-override-params: ${RULE}`);
    });

    it('x-gw-metadata', async () => {
      const res = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-metadata': `{"x":${deepArray}}` }));
      expect(res.status).to.equal(400);
      expect(res.json.error.message).to.equal(`header x-gw-metadata: ${RULE}`);
    });

    it('a header config exactly at the limit passes', async () => {
      const header = `{"provider":"openai","api_key":"sk-test","custom_host":"${mock.url}/v1","override_params":{"x":${'['.repeat(126)}${']'.repeat(126)}}}`;
      const res = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { ...configHeaders({}), 'x-gw-config': header });
      expect(res.status, res.text.slice(0, 300)).to.equal(200);
    });
  });

  it('a 9 MB body nested 4.5 million levels is refused at once while another request is served', async () => {
    const depth = 4_500_000;
    const body = Buffer.alloc(2 * depth);
    body.fill('[', 0, depth);
    body.fill(']', depth);
    const started = Date.now();
    const deep = rawPost(gw.url, '/v1/chat/completions', body, directHeaders(mock));
    const plain = postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
    const [deepReply, plainReply] = await Promise.all([deep, plain]);
    expect(deepReply.status).to.equal(400);
    expect(JSON.parse(deepReply.text)).to.deep.equal({ error: BODY_ERROR, provider: 'gw' });
    expect(plainReply.status, plainReply.text).to.equal(200);
    // JSON.parse alone spends about ten seconds on this body.
    expect(Date.now() - started, 'did not hang').to.be.below(5000);
  });

  it('tool-call arguments nested too deep are a 400 where an adapter parses them (anthropic), before any call', async () => {
    const anthropic = await startAnthropicMock();
    try {
      const args = JSON.stringify('{"a":'.repeat(4999) + '{"a":1}' + '}'.repeat(4999));
      const body = `{"model":"claude-sonnet-4-5","max_tokens":16,"messages":[{"role":"user","content":"hi"},`
        + `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":${args}}}]},`
        + `{"role":"tool","tool_call_id":"c1","content":"ok"}]}`;
      const res = await postJson(gw.url, '/v1/chat/completions', body, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'anthropic',
        authorization: 'Bearer sk-ant', 'x-gw-custom-host': `${anthropic.url}/v1`,
      });
      expect(res.status, res.text.slice(0, 300)).to.equal(400);
      expect(res.json.error).to.deep.include({ message: `body.messages.1.tool_calls.0.function.arguments: ${RULE}`, code: 'invalid_body' });
      expect(anthropic.requests).to.have.length(0);
    } finally {
      await anthropic.close();
    }
  });

  it('GW_JSON_MAX_DEPTH sets the limit', async () => {
    const small = await startGateway({ env: { GW_JSON_MAX_DEPTH: '4' } });
    try {
      // The body object is the first level.
      const ok = await postJson(small.url, '/v1/chat/completions', chatWith('override_marker', '[[[1]]]'), directHeaders(mock));
      expect(ok.status, ok.text.slice(0, 300)).to.equal(200);
      const refused = await postJson(small.url, '/v1/chat/completions', chatWith('override_marker', '[[[[1]]]]'), directHeaders(mock));
      expect(refused.status).to.equal(400);
      expect(refused.json.error.message).to.equal('body: nesting deeper than 4 levels (GW_JSON_MAX_DEPTH)');
    } finally {
      await small.stop();
    }
  });
});

/** POST raw bytes over node:http (fetch would copy 9 MB through a stream for nothing). */
function rawPost(base: string, path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method: 'POST', headers: { ...headers, 'content-length': String(body.byteLength) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // The gateway may answer before reading everything; a reset after the answer is not a failure here.
    req.on('error', reject);
    req.end(body);
  });
}
