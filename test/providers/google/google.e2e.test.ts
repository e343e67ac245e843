/**
 * provider.google end to end: the official openai SDK against a real gateway in direct mode
 * (`x-gw-provider: google`, the Gemini key as the SDK's Authorization), and the mock Gemini API.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import GoogleProviderPlugin from '../../../providers/google/index.js';
import { embed } from '../../fixtures/openai-wire.js';
import { GEMINI_TEST_KEY, startMockGeminiApi, type MockGeminiApi } from '../../fixtures/mock-gemini-api.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const MODEL = 'gemini-2.0-flash';
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WEATHER = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

async function apiError(run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await run();
  } catch (e) {
    expect(e).to.be.instanceOf(OpenAI.APIError);
    return e as InstanceType<typeof OpenAI.APIError>;
  }
  return expect.fail('expected an APIError');
}

describe('provider.google end to end (openai SDK, direct mode)', () => {
  let gw: TestGateway;
  let mock: MockGeminiApi;
  let client: OpenAI;
  const directHeaders = (key?: string): Record<string, string> => ({
    'content-type': 'application/json',
    'x-gw-api-key': TEST_API_KEY,
    'x-gw-provider': 'google',
    'x-gw-custom-host': `${mock.url}/v1beta`,
    ...(key ? { authorization: `Bearer ${key}` } : {}),
  });

  before(async () => {
    mock = await startMockGeminiApi();
    gw = await startGateway({ plugins: [GoogleProviderPlugin] });
    client = new OpenAI({
      apiKey: GEMINI_TEST_KEY,
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'google', 'x-gw-custom-host': `${mock.url}/v1beta` },
    });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe('chat', () => {
    it('calls generateContent with the key in x-goog-api-key and maps the answer and usage', async () => {
      const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello gemini' }] });
      expect(answer.choices[0]!.message.content).to.equal('echo: hello gemini');
      expect(answer.choices[0]!.finish_reason).to.equal('stop');
      expect((answer as unknown as { provider: string }).provider).to.equal('google');
      expect(answer.model).to.equal(MODEL);
      expect(answer.id).to.match(/^chatcmpl-mockResp/);
      expect(answer.usage!.prompt_tokens).to.be.greaterThan(0);
      expect(answer.usage!.total_tokens).to.equal(answer.usage!.prompt_tokens + answer.usage!.completion_tokens);

      const seen = mock.requests[0]!;
      expect(seen.path).to.equal(`/v1beta/models/${MODEL}:generateContent`);
      expect(seen.headers['x-goog-api-key']).to.equal(GEMINI_TEST_KEY);
      // The key travels once, in Google's header: never as a bearer token or in the query.
      expect(seen.headers['authorization']).to.equal(undefined);
      expect(seen.path).to.not.contain('key=');
      expect(seen.body).to.deep.equal({ contents: [{ role: 'user', parts: [{ text: 'hello gemini' }] }] });
    });

    it('streams through streamGenerateContent?alt=sse with a usage chunk when asked', async () => {
      const stream = await client.chat.completions.create({
        model: MODEL, messages: [{ role: 'user', content: 'stream these words please' }], stream: true, stream_options: { include_usage: true },
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(mock.requests[0]!.path).to.equal(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
      const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
      expect(text).to.equal('echo: stream these words please');
      expect(chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => c.choices[0]!.finish_reason)).to.deep.equal(['stop']);
      const last = chunks[chunks.length - 1]!;
      expect(last.choices).to.deep.equal([]);
      expect(last.usage!.prompt_tokens).to.be.greaterThan(0);
      expect(chunks.every((c) => (c as unknown as { provider: string }).provider === 'google')).to.equal(true);
    });

    it('lifts system messages into systemInstruction and sends tools as functionDeclarations', async () => {
      const answer = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'weather in Paris?' }],
        tools: [WEATHER],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      });
      const call = answer.choices[0]!.message.tool_calls![0]!;
      expect(answer.choices[0]!.finish_reason).to.equal('tool_calls');
      expect(call.type).to.equal('function');
      expect((call as { function: { name: string; arguments: string } }).function).to.deep.equal({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      expect(call.id).to.match(/^call_/);
      const sent = mock.requests[0]!.body;
      expect(sent.systemInstruction).to.deep.equal({ parts: [{ text: 'Be brief.' }] });
      expect(sent.tools).to.deep.equal([{ functionDeclarations: [WEATHER.function] }]);
      expect(sent.toolConfig).to.deep.equal({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    });

    it('sends the tool result back as a functionResponse', async () => {
      const answer = await client.chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
        ],
      });
      expect(answer.choices[0]!.finish_reason).to.equal('stop');
      expect(mock.requests[0]!.body.contents).to.deep.equal([
        { role: 'user', parts: [{ text: 'weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 21 } } }] },
      ]);
    });

    it('sends an image data URL as inlineData', async () => {
      await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } }] }],
      });
      expect(mock.requests[0]!.body.contents[0].parts).to.deep.equal([{ text: 'what is this?' }, { inlineData: { mimeType: 'image/png', data: PIXEL } }]);
    });

    it('takes Google\'s "models/" resource form of the model id', async () => {
      await client.chat.completions.create({ model: `models/${MODEL}`, messages: [{ role: 'user', content: 'hi' }] });
      expect(mock.requests[0]!.path).to.equal(`/v1beta/models/${MODEL}:generateContent`);
    });
  });

  describe('the Messages API', () => {
    it('reaches Gemini through chat and answers an Anthropic Message', async () => {
      const reply = await postJson(gw.url, '/v1/messages', { model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'hello via messages' }] }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(200);
      expect(reply.json.type).to.equal('message');
      expect(reply.json.content).to.deep.equal([{ type: 'text', text: 'echo: hello via messages' }]);
      expect(mock.requests[0]!.path).to.equal(`/v1beta/models/${MODEL}:generateContent`);
      expect(mock.requests[0]!.body.generationConfig).to.deep.equal({ maxOutputTokens: 64 });
    });
  });

  describe('embeddings', () => {
    it('embeds one string through embedContent (the SDK\'s base64 decoded to the same floats)', async () => {
      const answer = await client.embeddings.create({ model: 'text-embedding-004', input: 'the quick brown fox' });
      expect(mock.requests[0]!.path).to.equal('/v1beta/models/text-embedding-004:embedContent');
      expect(mock.requests[0]!.headers['x-goog-api-key']).to.equal(GEMINI_TEST_KEY);
      expect(mock.requests[0]!.body).to.deep.equal({ content: { parts: [{ text: 'the quick brown fox' }] } });
      expect(answer.data).to.have.length(1);
      const expected = embed('the quick brown fox');
      answer.data[0]!.embedding.forEach((x, i) => expect(x).to.be.closeTo(expected[i]!, 1e-6));
      expect(answer.model).to.equal('text-embedding-004');
    });

    it('embeds a batch through batchEmbedContents, in order, with dimensions and float output', async () => {
      const answer = await client.embeddings.create({ model: 'text-embedding-004', input: ['alpha', 'beta gamma', 'delta'], dimensions: 8, encoding_format: 'float' });
      const seen = mock.requests[0]!;
      expect(seen.path).to.equal('/v1beta/models/text-embedding-004:batchEmbedContents');
      expect(seen.body.requests).to.have.length(3);
      expect(seen.body.requests[1]).to.deep.equal({ model: 'models/text-embedding-004', content: { parts: [{ text: 'beta gamma' }] }, outputDimensionality: 8 });
      expect(answer.data.map((d) => d.index)).to.deep.equal([0, 1, 2]);
      expect(answer.data[1]!.embedding).to.deep.equal(embed('beta gamma', 8));
      expect(answer.usage).to.deep.equal({ prompt_tokens: 0, total_tokens: 0 });
    });

    it('answers 502 naming google when an embeddings answer has no vectors', async () => {
      mock.next({ status: 200, body: { embeddings: [{}] } });
      const reply = await postJson(gw.url, '/v1/embeddings', { model: 'text-embedding-004', input: ['a'] }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(502);
      expect(reply.json.provider).to.equal('google');
    });

    it('refuses token-id input with a 400 naming input, before any call', async () => {
      const reply = await postJson(gw.url, '/v1/embeddings', { model: 'text-embedding-004', input: [1, 2, 3] }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.param).to.equal('input');
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('errors', () => {
    for (const [status, name] of [[400, 'INVALID_ARGUMENT'], [429, 'RESOURCE_EXHAUSTED'], [500, 'INTERNAL']] as const) {
      it(`maps Google's ${status} ${name} to ${status} with the message, the status name as code and provider google`, async () => {
        mock.next({ status });
        const e = await apiError(() => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }));
        expect(e.status).to.equal(status);
        expect(e.code).to.equal(name);
        mock.next({ status });
        const raw = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, directHeaders(GEMINI_TEST_KEY));
        expect(raw.status).to.equal(status);
        expect(raw.json.provider).to.equal('google');
        expect(raw.json.error.code).to.equal(name);
        expect(raw.json.error.message).to.be.a('string').and.not.equal('');
      });
    }

    it('maps an error of an embeddings call the same way', async () => {
      mock.next({ status: 429 });
      const e = await apiError(() => client.embeddings.create({ model: 'text-embedding-004', input: ['a', 'b'] }));
      expect(e.status).to.equal(429);
      expect(e.code).to.equal('RESOURCE_EXHAUSTED');
    });

    it('passes a rejected key on as Google says it (400 INVALID_ARGUMENT), without echoing the key', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, directHeaders('AIza-wrong-key'));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('API key not valid');
      expect(reply.text).to.not.contain('AIza-wrong-key');
    });

    it('fails a stream whose first event is an error with that error (so a fallback can take over)', async () => {
      mock.next({ streamErrorAfter: 0, error: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } });
      const e = await apiError(async () => {
        for await (const _ of await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true })) { /* drain */ }
      });
      expect(e.status).to.equal(503);
      expect(e.code).to.equal('UNAVAILABLE');
    });

    it('ends a stream with one error event and no [DONE] when Google reports an error mid-stream', async () => {
      mock.next({ streamErrorAfter: 2 });
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'a longer prompt to stream' }], stream: true }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(200);
      const data = reply.text.split(/\n\n/).map((e) => e.replace(/^data: /, '')).filter((d) => d !== '');
      expect(data).to.not.include('[DONE]');
      const last = JSON.parse(data[data.length - 1]!);
      expect(last.error.message).to.contain('internal error');
      expect(last.provider).to.equal('google');
      expect(data.slice(0, -1).every((d) => JSON.parse(d).object === 'chat.completion.chunk')).to.equal(true);
    });

    it('answers 400 unsupported_endpoint for an endpoint the Gemini API does not serve here, calling nothing', async () => {
      const reply = await postJson(gw.url, '/v1/completions', { model: MODEL, prompt: 'hi' }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.code).to.equal('unsupported_endpoint');
      expect(mock.requests).to.have.length(0);
    });

    it('answers a non-JSON upstream error with the status and an excerpt', async () => {
      mock.next({ status: 502, body: '<html>Bad Gateway</html>' });
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(502);
      expect(reply.json.provider).to.equal('google');
      expect(reply.json.error.message).to.contain('Bad Gateway');
    });
  });

  describe('bad input and config', () => {
    it('refuses a direct request without a key: 400 naming api_key, nothing sent', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] }, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'google',
      });
      expect(reply.status).to.equal(400);
      expect(JSON.stringify(reply.json.error)).to.contain('api_key');
      expect(mock.requests).to.have.length(0);
    });

    it('refuses a config target without a key: 400 naming its path', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }] },
        configHeaders({ strategy: { mode: 'fallback' }, targets: [{ provider: 'google' }] }));
      expect(reply.status).to.equal(400);
      expect(JSON.stringify(reply.json.error)).to.contain('targets.0.api_key');
      expect(mock.requests).to.have.length(0);
    });

    it('refuses a model id that could change the URL path: 400 naming model', async () => {
      for (const model of ['../files/x', 'gemini?alt=json', '']) {
        const reply = await postJson(gw.url, '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, directHeaders(GEMINI_TEST_KEY));
        expect(reply.status, model).to.equal(400);
        expect(reply.json.error.param, model).to.equal('model');
      }
      expect(mock.requests).to.have.length(0);
    });

    it('refuses a message part Gemini cannot take: 400 naming the part and the provider', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', {
        model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://host/x.png' } }] }],
      }, directHeaders(GEMINI_TEST_KEY));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.param).to.equal('messages.0.content.0.image_url.url');
      expect(mock.requests).to.have.length(0);
    });
  });
});
