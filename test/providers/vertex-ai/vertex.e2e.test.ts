/** provider.vertex-ai end to end: a real gateway against the mock Vertex AI (token endpoint included). */
import { expect } from 'chai';
import sinon from 'sinon';
import AnthropicProviderPlugin from '../../../providers/anthropic/index.js';
import VertexProviderPlugin from '../../../providers/vertex-ai/index.js';
import RequestTimeoutPlugin from '../../../plugins/policies/request-timeout/index.js';
import type { VertexMock } from '../../fixtures/mock-vertex.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';
import { serviceAccount, startMock, strangerKeyPair, vertexConfig } from './service-account.js';

const GEMINI = 'gemini-2.0-flash-001';
const CLAUDE = 'claude-3-5-sonnet-v2@20241022';
const ask = (model = GEMINI, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hello' }], ...extra });

/** Data payloads of a raw SSE body, in order. */
function sseData(text: string): string[] {
  return text.split(/\n\n/).map((e) => e.replace(/^data: /, '')).filter((d) => d !== '');
}

describe('provider.vertex-ai end to end', () => {
  let gw: TestGateway;
  let mock: VertexMock;
  const chat = (body: unknown, config: Record<string, unknown> = vertexConfig(mock)) => postJson(gw.url, '/v1/chat/completions', body, configHeaders(config));

  before(async () => {
    gw = await startGateway({
      plugins: [AnthropicProviderPlugin, { use: VertexProviderPlugin, options: { tokenExchangeTimeoutMs: 500 } }, RequestTimeoutPlugin],
    });
  });
  after(async () => {
    await gw.stop();
  });
  beforeEach(async () => {
    mock = await startMock({ acceptTokens: ['ya29.given'] });
  });
  afterEach(async () => {
    await mock.close();
  });

  describe('service-account auth', () => {
    let clock: sinon.SinonFakeTimers | undefined;
    afterEach(() => clock?.restore());

    it('mints one token for many concurrent requests and reuses it', async () => {
      const replies = await Promise.all(Array.from({ length: 12 }, () => chat(ask())));
      expect(replies.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
      expect((await chat(ask())).status).to.equal(200);
      expect(mock.tokenExchanges()).to.equal(1);
      expect(mock.tokenRequests).to.have.length(1);
      const auth = new Set(mock.requests.map((r) => r.headers['authorization']));
      expect(auth.size).to.equal(1);
      expect([...auth][0]).to.match(/^Bearer ya29\.mock-1-/);
    });

    it('exchanges again once the token is within 5 minutes of expiry', async () => {
      clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
      expect((await chat(ask())).status).to.equal(200);
      clock.tick(54 * 60_000);
      expect((await chat(ask())).status).to.equal(200);
      expect(mock.tokenExchanges()).to.equal(1);
      clock.tick(2 * 60_000); // 56 minutes: inside the margin of the 3599-second token
      expect((await chat(ask())).status).to.equal(200);
      expect(mock.tokenExchanges()).to.equal(2);
      expect(mock.requests[2]!.headers['authorization']).to.match(/^Bearer ya29\.mock-2-/);
    });

    it('answers 401 with the token endpoint\'s reason when the key does not match the account', async () => {
      const stranger = strangerKeyPair();
      const reply = await chat(ask(), vertexConfig(mock, { cloudC_service_account_json: serviceAccount(mock.tokenUri, stranger.privateKey) }));
      expect(reply.status).to.equal(401);
      expect(reply.json.provider).to.equal('vertex-ai');
      expect(reply.json.error.code).to.equal('token_exchange_failed');
      expect(reply.json.error.message).to.contain('invalid_grant').and.contain('Invalid JWT Signature.');
      expect(mock.requests).to.have.length(0);
    });

    it('answers 502 when the token endpoint fails or cannot be reached', async () => {
      mock.nextToken({ status: 503, body: 'busy' });
      const failing = await chat(ask());
      expect(failing.status).to.equal(502);
      expect(failing.json.provider).to.equal('vertex-ai');
      const unreachable = await chat(ask(), vertexConfig(mock, { cloudC_service_account_json: serviceAccount('http://127.0.0.1:9/token') }));
      expect(unreachable.status).to.equal(502);
      expect(unreachable.json.error.message).to.contain('token endpoint unreachable');
      expect(mock.requests).to.have.length(0);
    });

    it('bounds a hanging token exchange by request_timeout (408)', async () => {
      mock.nextToken({ hang: true });
      const started = performance.now();
      const reply = await chat(ask(), vertexConfig(mock, { request_timeout: 100 }));
      expect(reply.status).to.equal(408);
      expect(performance.now() - started).to.be.lessThan(450);
    });

    it('sends a given access token (api_key) without any exchange, also in direct mode', async () => {
      const config = { provider: 'vertex-ai', cloudC_region: 'europe-west4', cloudC_project_id: 'p-1', api_key: 'ya29.given', custom_host: `${mock.url}/v1` };
      expect((await chat(ask(), config)).status).to.equal(200);
      const direct = await postJson(gw.url, '/v1/chat/completions', ask(), {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, authorization: 'Bearer ya29.given',
        'x-gw-provider': 'vertex-ai', 'x-gw-cloudc-region': 'global', 'x-gw-cloudc-project-id': 'p-2', 'x-gw-custom-host': `${mock.url}/v1`,
      });
      expect(direct.status).to.equal(200);
      expect(mock.tokenRequests).to.have.length(0);
      expect(mock.requests.map((r) => [r.path, r.headers['authorization']])).to.deep.equal([
        [`/v1/projects/p-1/locations/europe-west4/publishers/google/models/${GEMINI}:generateContent`, 'Bearer ya29.given'],
        [`/v1/projects/p-2/locations/global/publishers/google/models/${GEMINI}:generateContent`, 'Bearer ya29.given'],
      ]);
    });
  });

  describe('config rules', () => {
    it('rejects incomplete targets with a 400 naming the field, before any call', async () => {
      const { cloudC_region: _r, ...noRegion } = vertexConfig(mock);
      const cases: [Record<string, unknown>, string][] = [
        [noRegion, 'config.cloudC_region: is required for provider "vertex-ai"'],
        [vertexConfig(mock, { cloudC_region: 'x.evil.com' }), 'config.cloudC_region: must be a region name'],
        [{ provider: 'vertex-ai', cloudC_region: 'us-central1', cloudC_project_id: 'p' }, 'config.cloudC_service_account_json: or api_key (an access token) is required'],
        [{ strategy: { mode: 'single' }, targets: [{ provider: 'vertex-ai', cloudC_region: 'us-central1', api_key: 'ya29.given' }] }, 'config.targets.0.cloudC_project_id: is required'],
      ];
      for (const [config, message] of cases) {
        const reply = await chat(ask(), config);
        expect(reply.status, message).to.equal(400);
        expect(reply.json.error.code).to.equal('invalid_config');
        expect(reply.json.error.message).to.contain(message);
      }
      expect(mock.requests).to.have.length(0);
      expect(mock.tokenRequests).to.have.length(0);
    });
  });

  describe('Gemini', () => {
    it('sends the translated body (system, image, tools, tool results) that Vertex accepts', async () => {
      const reply = await chat({
        model: GEMINI,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'what is in this picture?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'lookup', arguments: '{"q":"cat"}' } }] },
          { role: 'tool', tool_call_id: 'call_9', content: '{"animal":"cat"}' },
          { role: 'user', content: 'so?' },
        ],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
        tool_choice: 'none',
        temperature: 0.3,
        max_tokens: 64,
      });
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json.choices[0].message.content).to.equal('echo: so?');
      const sent = mock.requests[0]!.body;
      expect(sent.systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
      expect(sent.contents.map((c: { role: string }) => c.role)).to.deep.equal(['user', 'model', 'user']);
      expect(sent.contents[2].parts).to.deep.equal([{ functionResponse: { name: 'lookup', response: { animal: 'cat' } } }, { text: 'so?' }]);
      expect(sent.toolConfig).to.deep.equal({ functionCallingConfig: { mode: 'NONE' } });
      expect(sent.generationConfig).to.deep.equal({ temperature: 0.3, maxOutputTokens: 64 });
    });

    it('maps a safety stop to content_filter, whole and streamed', async () => {
      mock.next({ status: 200, body: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'I can' }] }, finishReason: 'SAFETY', safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 }, modelVersion: GEMINI,
      } });
      const whole = await chat(ask());
      expect(whole.json.choices[0].finish_reason).to.equal('content_filter');
      expect(whole.json.choices[0].message.content).to.equal('I can');
      mock.next({ events: [
        { candidates: [{ content: { role: 'model', parts: [{ text: 'I can' }] } }] },
        { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 } },
      ] });
      const streamed = sseData((await chat(ask(GEMINI, { stream: true }))).text);
      expect(streamed[streamed.length - 1]).to.equal('[DONE]');
      const finishes = streamed.slice(0, -1).map((d) => JSON.parse(d).choices[0].finish_reason).filter(Boolean);
      expect(finishes).to.deep.equal(['content_filter']);
    });

    it("keeps Google's status, message and status name in the error envelope", async () => {
      mock.next({ status: 429 });
      const limited = await chat(ask());
      expect(limited.status).to.equal(429);
      expect(limited.json).to.deep.equal({
        error: { message: 'Resource exhausted. Please try again later.', type: 'rate_limit_error', param: null, code: 'RESOURCE_EXHAUSTED' },
        provider: 'vertex-ai',
      });
      mock.next({ status: 404, body: { error: { code: 404, message: 'Publisher Model `gemini-9` not found.', status: 'NOT_FOUND' } } });
      const missing = await chat(ask());
      expect(missing.status).to.equal(404);
      expect(missing.json.error.message).to.equal('Publisher Model `gemini-9` not found.');
    });

    it('fails a stream whose first event is an error as a whole, with its status', async () => {
      mock.next({ events: [{ error: { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' } }] });
      const reply = await chat(ask(GEMINI, { stream: true }));
      expect(reply.status).to.equal(429);
      expect(reply.json.error.message).to.equal('Quota exceeded.');
    });

    it('ends a stream with the provider error event and no [DONE] when Vertex reports one mid-way', async () => {
      mock.next({ events: [
        { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] } }] },
        { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } },
      ] });
      const reply = await chat(ask(GEMINI, { stream: true }));
      expect(reply.status).to.equal(200);
      const data = sseData(reply.text);
      expect(data).to.not.include('[DONE]');
      expect(JSON.parse(data[0]!).choices[0].delta.content).to.equal('Hel');
      expect(JSON.parse(data[data.length - 1]!)).to.deep.equal({
        error: { message: 'Internal error encountered.', type: 'api_error', param: null, code: 'INTERNAL' }, provider: 'vertex-ai',
      });
    });

    it('passes each translated chunk on as its provider event arrives', async () => {
      await mock.close();
      mock = await startMock({ streamChunkDelayMs: 120 });
      const started = performance.now();
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: configHeaders(vertexConfig(mock)), body: JSON.stringify(ask(GEMINI, { stream: true })) });
      const reader = res.body!.getReader();
      const first = await reader.read();
      const firstAt = performance.now() - started;
      expect(Buffer.from(first.value!).toString()).to.contain('"content":"echo:"');
      while (!(await reader.read()).done) { /* drain */ }
      const endAt = performance.now() - started;
      // "echo: hello" comes as 3 events, 120 ms apart: the first chunk left before the other two existed.
      expect(endAt - firstAt).to.be.greaterThan(180);
    });
  });

  describe('Claude on Vertex', () => {
    it('calls rawPredict with the Vertex body and labels the answer vertex-ai', async () => {
      const reply = await chat(ask(CLAUDE));
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json.provider).to.equal('vertex-ai');
      expect(reply.json.choices[0].message.content).to.equal('echo: hello');
      const sent = mock.requests[0]!;
      expect(sent.path).to.equal(`/v1/projects/gw-test-project/locations/us-central1/publishers/anthropic/models/${CLAUDE}:rawPredict`);
      expect(sent.headers['x-api-key']).to.equal(undefined);
      expect(sent.headers['authorization']).to.match(/^Bearer ya29\.mock-/);
      expect(sent.body.anthropic_version).to.equal('vertex-2023-10-16');
      expect(sent.body).to.not.have.property('model');
    });

    it('labels every streamed chunk vertex-ai', async () => {
      const data = sseData((await chat(ask(CLAUDE, { stream: true, stream_options: { include_usage: true } }))).text);
      expect(data.pop()).to.equal('[DONE]');
      expect(data.length).to.be.greaterThan(3);
      for (const d of data) expect(JSON.parse(d).provider).to.equal('vertex-ai');
    });

    it("reads Google's errors from Vertex's front end and Anthropic's from the model, both as vertex-ai", async () => {
      mock.next({ status: 403 });
      const denied = await chat(ask(CLAUDE));
      expect(denied.status).to.equal(403);
      expect(denied.json.error.code).to.equal('PERMISSION_DENIED');
      expect(denied.json.provider).to.equal('vertex-ai');
      mock.next({ status: 529 });
      const overloaded = await chat(ask(CLAUDE));
      expect(overloaded.status).to.equal(529);
      expect(overloaded.json.error.type).to.equal('overloaded_error');
      expect(overloaded.json.provider).to.equal('vertex-ai');
    });

    it('ends a stream with an Anthropic error event as vertex-ai', async () => {
      mock.next({ events: [
        { type: 'message_start', message: { id: 'msg_vrtx_1', type: 'message', role: 'assistant', model: CLAUDE, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ] });
      const data = sseData((await chat(ask(CLAUDE, { stream: true }))).text);
      expect(data).to.not.include('[DONE]');
      const last = JSON.parse(data[data.length - 1]!);
      expect(last.error.message).to.equal('Overloaded');
      expect(last.provider).to.equal('vertex-ai');
    });
  });
});
