/**
 * End to end through the real host: the official openai SDK and raw HTTP against a mock OpenAI
 * provider on loopback, in the three request modes that need no stored records.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

describe('inference routes end to end', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;
  let client: OpenAI;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway();
    client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
    });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  describe('with the openai SDK', () => {
    it('answers a chat completion', async () => {
      const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
      expect(answer.object).to.equal('chat.completion');
      expect(answer.choices[0]!.message.content).to.equal('echo: hello');
      expect(mock.requests).to.have.length(1);
      expect(mock.requests[0]!.path).to.equal('/v1/chat/completions');
      expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-test');
    });

    it('streams a chat completion chunk by chunk, ending in [DONE]', async () => {
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello' }] });
      let text = '';
      let chunks = 0;
      for await (const chunk of stream) {
        expect(chunk.object).to.equal('chat.completion.chunk');
        text += chunk.choices[0]?.delta?.content ?? '';
        chunks++;
      }
      expect(text).to.equal('echo: hello');
      expect(chunks).to.be.greaterThan(3);
    });

    it('answers text completions, plain and streamed', async () => {
      const plain = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say hi' });
      expect(plain.object).to.equal('text_completion');
      const stream = await client.completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'say hi', stream: true });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
      expect(text).to.equal(plain.choices[0]!.text);
    });

    it('answers embeddings', async () => {
      const answer = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a cat', 'a dog'] });
      expect(answer.data).to.have.length(2);
      expect(answer.data[0]!.embedding.length).to.be.greaterThan(0);
    });

    it('answers moderations and sends text-moderation-latest when no model is named', async () => {
      const answer = await client.moderations.create({ input: 'I will kill the process' } as never);
      expect(answer.results[0]!.flagged).to.equal(true);
      expect(mock.requests[0]!.body.model).to.equal('text-moderation-latest');
    });

    it('surfaces a provider error as APIError with the provider status and message', async () => {
      mock.next({ status: 429, body: { error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests', param: null, code: 'rate_limit_exceeded' } } });
      try {
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
        expect.fail('should have thrown');
      } catch (e) {
        expect(e).to.be.instanceOf(OpenAI.APIError);
        const err = e as InstanceType<typeof OpenAI.APIError>;
        expect(err.status).to.equal(429);
        expect(err.message).to.contain('Rate limit reached for gpt-4o-mini');
        expect(err.code).to.equal('rate_limit_exceeded');
      }
    });

    it('surfaces a gateway validation error as APIError with our message', async () => {
      try {
        await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], temperature: 3 });
        expect.fail('should have thrown');
      } catch (e) {
        const err = e as InstanceType<typeof OpenAI.APIError>;
        expect(err.status).to.equal(400);
        expect(err.message).to.contain('body.temperature: must be <= 2');
        expect(err.param).to.equal('temperature');
        expect(mock.requests).to.have.length(0);
      }
    });
  });

  describe('request modes', () => {
    it('direct headers: x-gw-provider + Authorization + x-gw-custom-host', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-provider')).to.equal('openai');
      expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config');
      expect(reply.headers.get('x-gw-trace-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('a config object in x-gw-config', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY,
        configHeaders({ provider: 'openai', api_key: 'sk-from-config', custom_host: `${mock.url}/v1` }));
      expect(reply.status).to.equal(200);
      expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-from-config');
    });

    it('x-gw-config with targets takes the provider key from Authorization', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders(
        { strategy: { mode: 'single' }, targets: [{ provider: 'openai', custom_host: `${mock.url}/v1` }] },
        { authorization: 'Bearer sk-from-header' },
      ));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
      expect(mock.requests[0]!.headers['authorization']).to.equal('Bearer sk-from-header');
    });

    it('x-gw-<field> headers set other config fields (vendorD organization and project)', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, {
        'x-gw-vendord-organization': 'org-123',
        'x-gw-vendord-project': 'proj-9',
      }));
      expect(reply.status).to.equal(200);
      expect(mock.requests[0]!.headers['openai-organization']).to.equal('org-123');
      expect(mock.requests[0]!.headers['openai-project']).to.equal('proj-9');
    });

    it('rejects an x-gw-<field> header of the wrong type, naming the header', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-request-timeout': 'soon' }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('header x-gw-request-timeout: must be an integer');
    });

    it('rejects an unknown x-gw- header', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-colour': 'blue' }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('x-gw-colour');
    });

    it('rejects a request without any config', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.code).to.equal('invalid_config');
      expect(reply.json.error.message).to.contain('x-gw-provider');
    });

    it('rejects malformed x-gw-config JSON and an invalid config, naming the path and rule', async () => {
      let reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { ...configHeaders({}), 'x-gw-config': '{"provider":' });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('header x-gw-config: is not valid JSON');
      reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ retry: { attempts: 1 }, cb_config: { failure_threshold: 1, cooldown_interval: 10 } }));
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({
        error: { message: 'config.cb_config.cooldown_interval: must be >= 30000', type: 'invalid_request_error', param: 'cb_config.cooldown_interval', code: 'invalid_config' },
        provider: 'gw',
      });
    });

    it('rejects an unknown provider and a missing provider key at config validation', async () => {
      let reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ provider: 'nope', api_key: 'x' }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('config.provider: unknown provider "nope"');
      reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, configHeaders({ strategy: { mode: 'single' }, targets: [{ provider: 'openai' }] }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('config.targets.0.api_key: is required for provider "openai" (or set custom_host)');
    });
  });

  describe('streams', () => {
    it('ends a stream cut by the provider with one error event and no [DONE]', async () => {
      mock.next({ streamCutAfter: 2 });
      const res = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock), body: JSON.stringify({ ...CHAT_BODY, stream: true }) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('text/event-stream');
      const text = await res.text();
      const events = text.split('\n\n').filter(Boolean);
      const last = events[events.length - 1]!;
      expect(last).to.match(/^data: \{"error":/);
      expect(JSON.parse(last.slice(6)).provider).to.equal('openai');
      expect(text).not.to.contain('[DONE]');
      expect(events.filter((e) => e.includes('"error"'))).to.have.length(1);
    });

    it('answers 502 when the provider resets before the first byte of a stream', async () => {
      mock.next({ reset: true });
      const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, stream: true }, directHeaders(mock));
      expect(reply.status).to.equal(502);
      expect(reply.json.error.message).to.contain('provider openai');
      expect(reply.json.provider).to.equal('openai');
    });

    it('rejects stream_options without stream', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, stream_options: { include_usage: true } }, directHeaders(mock));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.param).to.equal('stream_options');
    });

    it('rejects stream on embeddings', async () => {
      const reply = await postJson(gw.url, '/v1/embeddings', { model: 'm', input: 'x', stream: true }, directHeaders(mock));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('body.stream: is not supported on /v1/embeddings');
    });
  });

  describe('provider failures', () => {
    it('answers 502 when the provider is unreachable, without leaking its URL', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-custom-host': 'http://127.0.0.1:1/v1' }));
      expect(reply.status).to.equal(502);
      expect(reply.json.error.message).to.equal('provider openai is unreachable: connection refused');
    });

    it('answers 502 when the provider answers something that is not JSON', async () => {
      mock.next({ status: 200, body: '<html>oops</html>', headers: { 'content-type': 'text/html' } });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
      expect(reply.status).to.equal(502);
      expect(reply.json.error.message).to.contain('text/html');
    });

    it('passes a non-JSON provider error on with its status', async () => {
      mock.next({ status: 503, body: 'upstream overloaded', headers: { 'content-type': 'text/plain' } });
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
      expect(reply.status).to.equal(503);
      expect(reply.json.error.message).to.contain('upstream overloaded');
      expect(reply.json.provider).to.equal('openai');
    });
  });
});
