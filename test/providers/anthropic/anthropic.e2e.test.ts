/**
 * provider.anthropic end to end: the official openai SDK (and raw HTTP) → a real gateway → the
 * loopback Anthropic mock, which checks path, x-api-key, anthropic-version and the body shape.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import AnthropicProviderPlugin from '../../../providers/anthropic/index.js';
import { MOCK_THINKING, MOCK_TOOL_PREAMBLE, startAnthropicMock, type MockAnthropic } from '../../fixtures/mock-anthropic.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';
import { WEATHER_TOOL } from '../conformance.js';

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
const MODEL = 'claude-sonnet-4-5';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('provider.anthropic end to end', () => {
  let mock: MockAnthropic;
  let gw: TestGateway;
  const route = (extra: Record<string, unknown> = {}) => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${mock.url}/v1`, ...extra });
  const client = (config: Record<string, unknown> = route()) => new OpenAI({
    apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) },
  });
  const lastBody = () => mock.requests[mock.requests.length - 1]!.body;
  const collect = async (stream: AsyncIterable<Chunk>) => {
    const chunks: Chunk[] = [];
    for await (const c of stream) chunks.push(c);
    return chunks;
  };
  const apiError = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      expect(e).to.be.instanceOf(OpenAI.APIError);
      return e as InstanceType<typeof OpenAI.APIError>;
    }
    return expect.fail('expected an APIError');
  };

  before(async () => {
    mock = await startAnthropicMock();
    gw = await startGateway({ plugins: [AnthropicProviderPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe('the wire', () => {
    it('posts to {custom_host}/messages with x-api-key and anthropic-version, no client or gateway headers', async () => {
      await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] });
      const rec = mock.requests[0]!;
      expect(rec.method).to.equal('POST');
      expect(rec.path).to.equal('/v1/messages');
      expect(rec.headers['x-api-key']).to.equal('sk-ant-test');
      expect(rec.headers['anthropic-version']).to.equal('2023-06-01');
      expect(rec.headers['authorization']).to.equal(undefined);
      expect(Object.keys(rec.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
    });

    it('the mock refuses what the API refuses: no x-api-key (401), no anthropic-version (400), in Anthropic format', async () => {
      const body = JSON.stringify({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });
      const noKey = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body });
      expect(noKey.status).to.equal(401);
      expect(await noKey.json()).to.deep.include({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } });
      const noVersion = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body });
      expect(noVersion.status).to.equal(400);
      expect(((await noVersion.json()) as any).error.type).to.equal('invalid_request_error');
    });

    it('passes the provider 401 on when custom_host is set without a key (and no Bearer to take it from)', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'x' }] },
        configHeaders({ provider: 'anthropic', custom_host: `${mock.url}/v1` }));
      expect(reply.status).to.equal(401);
      expect(reply.json.error).to.include({ type: 'authentication_error', message: 'x-api-key header is required' });
      expect(reply.json.provider).to.equal('anthropic');
      expect(mock.requests[0]!.headers['x-api-key']).to.equal(undefined);
    });

    it('rejects a target without api_key or custom_host when the config is validated (400, no call)', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'x' }] },
        configHeaders({ strategy: { mode: 'single' }, targets: [{ provider: 'anthropic' }] }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('targets.0.api_key');
      expect(reply.json.error.message).to.contain('is required for provider "anthropic"');
      expect(mock.requests).to.have.length(0);
    });

    it('works in direct mode: x-gw-provider anthropic, the Bearer key sent as x-api-key', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'direct' }] }, {
        'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'anthropic',
        authorization: 'Bearer sk-ant-direct', 'x-gw-custom-host': `${mock.url}/v1`,
      });
      expect(reply.status).to.equal(200);
      expect(reply.json.choices[0].message.content).to.equal('echo: direct');
      expect(reply.headers.get('x-gw-provider')).to.equal('anthropic');
      expect(mock.requests[0]!.headers['x-api-key']).to.equal('sk-ant-direct');
    });

    it('answers unsupported_endpoint for endpoints the Messages API does not serve, without a call', async () => {
      const e = await apiError(() => client().embeddings.create({ model: MODEL, input: 'x' }));
      expect(e.status).to.equal(400);
      expect(e.code).to.equal('unsupported_endpoint');
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('requests', () => {
    it('lifts system and developer messages into system', async () => {
      const answer = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: 'system', content: 'Be brief.' }, { role: 'developer', content: 'Answer in English.' }, { role: 'user', content: 'hello' }],
      });
      expect(answer.choices[0]!.message.content).to.equal('echo: hello');
      expect(lastBody().system).to.deep.equal([{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Answer in English.' }]);
      expect(lastBody().messages).to.deep.equal([{ role: 'user', content: 'hello' }]);
    });

    it('sends max_tokens 4096 by default, else the client\'s; a short limit ends with finish_reason length', async () => {
      await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
      expect(lastBody().max_tokens).to.equal(4096);
      const short = await client().chat.completions.create({ model: MODEL, max_tokens: 2, messages: [{ role: 'user', content: 'a rather long question' }] });
      expect(lastBody().max_tokens).to.equal(2);
      expect(short.choices[0]!.finish_reason).to.equal('length');
      await client().chat.completions.create({ model: MODEL, max_completion_tokens: 99, messages: [{ role: 'user', content: 'x' }] });
      expect(lastBody().max_tokens).to.equal(99);
    });

    it('maps stop to stop_sequences; a matched sequence ends with finish_reason stop', async () => {
      const answer = await client().chat.completions.create({ model: MODEL, stop: ['there', 'END'], messages: [{ role: 'user', content: 'hello there' }] });
      expect(lastBody().stop_sequences).to.deep.equal(['there', 'END']);
      expect(answer.choices[0]!.message.content).to.equal('echo: hello ');
      expect(answer.choices[0]!.finish_reason).to.equal('stop');
      await client().chat.completions.create({ model: MODEL, stop: 'END', messages: [{ role: 'user', content: 'x' }] });
      expect(lastBody().stop_sequences).to.deep.equal(['END']);
    });

    it('sends images: data URLs as base64 sources, https URLs as url sources', async () => {
      const answer = await client().chat.completions.create({
        model: MODEL,
        messages: [{
          role: 'user', content: [
            { type: 'text', text: 'describe' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://upload.example.org/cat.jpg', detail: 'low' } },
          ],
        }],
      });
      expect(answer.choices[0]!.message.content).to.equal('echo: describe');
      expect(lastBody().messages[0].content).to.deep.equal([
        { type: 'text', text: 'describe' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: 'https://upload.example.org/cat.jpg' } },
      ]);
    });

    it('maps temperature, top_p and user; reports prompt-cache reads as cached_tokens', async () => {
      const answer = await client().chat.completions.create({
        model: MODEL, temperature: 0.5, top_p: 0.8, user: 'user-42',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'A long, cacheable system prompt.', cache_control: { type: 'ephemeral' } } as never] },
          { role: 'user', content: 'x' },
        ],
      });
      expect(lastBody()).to.deep.include({ temperature: 0.5, top_p: 0.8, metadata: { user_id: 'user-42' } });
      expect(lastBody().system).to.deep.equal([{ type: 'text', text: 'A long, cacheable system prompt.', cache_control: { type: 'ephemeral' } }]);
      expect(answer.usage!.prompt_tokens_details!.cached_tokens).to.be.greaterThan(0);
      expect(answer.usage!.prompt_tokens).to.be.greaterThan(answer.usage!.prompt_tokens_details!.cached_tokens!);
    });

    it('answers 400 for tool arguments that are not JSON, before any call', async () => {
      const e = await apiError(() => client().chat.completions.create({
        model: MODEL,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'get_weather', arguments: '{city:' } }] },
          { role: 'tool', tool_call_id: 't1', content: 'sunny' },
        ],
      }));
      expect(e.status).to.equal(400);
      expect(e.param).to.equal('messages.1.tool_calls.0.function.arguments');
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('tool round trip', () => {
    it('sends a tool call back as tool_use and the tool answer as a tool_result the API accepts', async () => {
      const c = client();
      const ask: Params = { model: MODEL, messages: [{ role: 'user', content: 'weather in Paris?' }], tools: [WEATHER_TOOL], tool_choice: 'required' };
      const first = await c.chat.completions.create(ask);
      expect(lastBody().tool_choice).to.deep.equal({ type: 'any' });
      expect(lastBody().tools).to.deep.equal([{ name: 'get_weather', description: 'Current weather in a city', input_schema: WEATHER_TOOL.function.parameters }]);
      const message = first.choices[0]!.message;
      expect(message.content).to.equal(MOCK_TOOL_PREAMBLE);
      const call = message.tool_calls![0]!;
      const second = await c.chat.completions.create({
        ...ask,
        tool_choice: 'none',
        messages: [...ask.messages, message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 24 C' }],
      });
      expect(second.choices[0]!.message.content).to.equal('echo: sunny, 24 C');
      expect(second.choices[0]!.finish_reason).to.equal('stop');
      const sent = lastBody();
      expect(sent.tool_choice).to.deep.equal({ type: 'none' });
      expect(sent.messages[1]).to.deep.equal({
        role: 'assistant',
        content: [{ type: 'text', text: MOCK_TOOL_PREAMBLE }, { type: 'tool_use', id: call.id, name: 'get_weather', input: { city: 'Paris' } }],
      });
      expect(sent.messages[2]).to.deep.equal({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny, 24 C' }] });
    });

    it('the mock refuses a tool_result whose tool_use is missing (the gateway passes the 400 on)', async () => {
      const e = await apiError(() => client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'toolu_nope', content: 'r' }] }));
      expect(e.status).to.equal(400);
      expect(e.type).to.equal('invalid_request_error');
      expect(e.message).to.contain('toolu_nope');
    });
  });

  describe('thinking', () => {
    const thinking = { type: 'enabled', budget_tokens: 2048 };

    it('drops thinking under strict compliance (default): nothing sent, no content_blocks back', async () => {
      const answer = await client().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'think' }], thinking } as Params);
      expect(lastBody()).to.not.have.property('thinking');
      expect(answer.choices[0]!.message).to.not.have.property('content_blocks');
      expect(answer.choices[0]!.message.content).to.equal('echo: think');
    });

    it('passes thinking on with strict_compat_compliance false and answers content_blocks', async () => {
      const answer = await client(route({ strict_compat_compliance: false })).chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'think' }], thinking } as Params);
      expect(lastBody().thinking).to.deep.equal(thinking);
      const message = answer.choices[0]!.message as typeof answer.choices[0]['message'] & { content_blocks: Record<string, unknown>[] };
      expect(message.content).to.equal('echo: think');
      expect(message.content_blocks).to.have.length(2);
      expect(message.content_blocks[0]).to.include({ type: 'thinking' });
      expect(message.content_blocks[0]!.thinking).to.match(new RegExp(`^${MOCK_THINKING}`));
      expect(message.content_blocks[0]!.signature).to.match(/^sig_mock_/);
      expect(message.content_blocks[1]).to.deep.equal({ type: 'text', text: 'echo: think' });
    });

    it('streams thinking, text and tool-use JSON deltas, and takes the thinking back on the next turn', async () => {
      const c = client(route({ strict_compat_compliance: false }));
      const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'weather in Paris?' }], tools: [WEATHER_TOOL], thinking };
      const chunks = await collect(await c.chat.completions.create({ ...ask, stream: true } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming));
      const deltas = chunks.map((ch) => ch.choices[0]?.delta as (Chunk['choices'][0]['delta'] & { content_blocks?: any[] }) | undefined);
      const blocks = deltas.flatMap((d) => d?.content_blocks ?? []);
      expect(blocks.length).to.be.at.least(3);
      for (const b of blocks) expect(b).to.include({ index: 0, type: 'thinking' });
      const thought = blocks.map((b) => b.thinking ?? '').join('');
      const signature = blocks.map((b) => b.signature ?? '').join('');
      expect(thought).to.match(new RegExp(`^${MOCK_THINKING}`));
      expect(signature).to.match(/^sig_mock_/);
      expect(deltas.map((d) => d?.content ?? '').join('')).to.equal(MOCK_TOOL_PREAMBLE);
      const calls = deltas.flatMap((d) => d?.tool_calls ?? []);
      expect(calls.length).to.be.at.least(3);
      expect(calls.every((t) => t.index === 0)).to.equal(true);
      expect(JSON.parse(calls.map((t) => t.function?.arguments ?? '').join(''))).to.deep.equal({ city: 'Paris' });
      expect(chunks.filter((ch) => ch.choices[0]?.finish_reason).map((ch) => ch.choices[0]!.finish_reason)).to.deep.equal(['tool_calls']);

      // The client sends the reassembled thinking back with the tool call: the API needs it to continue.
      const callId = calls[0]!.id!;
      const next = await c.chat.completions.create({
        ...ask,
        tool_choice: 'none',
        messages: [
          ...ask.messages,
          { role: 'assistant', content: MOCK_TOOL_PREAMBLE, tool_calls: [{ id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }], content_blocks: [{ type: 'thinking', thinking: thought, signature }] } as never,
          { role: 'tool', tool_call_id: callId, content: 'sunny' },
        ],
      } as Params);
      expect(next.choices[0]!.message.content).to.equal('echo: sunny');
      expect(lastBody().messages[1].content).to.deep.equal([
        { type: 'thinking', thinking: thought, signature },
        { type: 'text', text: MOCK_TOOL_PREAMBLE },
        { type: 'tool_use', id: callId, name: 'get_weather', input: { city: 'Paris' } },
      ]);
    });

    it('streams no thinking under strict compliance', async () => {
      const params = { model: MODEL, stream: true, messages: [{ role: 'user', content: 'think' }], thinking } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
      const chunks = await collect(await client().chat.completions.create(params));
      expect(chunks.some((ch) => (ch.choices[0]?.delta as { content_blocks?: unknown })?.content_blocks)).to.equal(false);
      expect(chunks.map((ch) => ch.choices[0]?.delta?.content ?? '').join('')).to.equal('echo: think');
    });
  });

  describe('errors', () => {
    const ask: Params = { model: MODEL, messages: [{ role: 'user', content: 'x' }] };

    it('passes error types on: authentication_error 401, overloaded_error 529, a custom 400 message', async () => {
      mock.next({ status: 401 });
      const auth = await apiError(() => client().chat.completions.create(ask));
      expect([auth.status, auth.type]).to.deep.equal([401, 'authentication_error']);
      mock.next({ status: 529 });
      const overloaded = await apiError(() => client().chat.completions.create(ask));
      expect([overloaded.status, overloaded.type, overloaded.message]).to.deep.equal([529, 'overloaded_error', '529 Overloaded']);
      mock.next({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate' } } });
      const raw = await postJson(gw.url, '/v1/chat/completions', ask, configHeaders(route()));
      expect(raw.status).to.equal(400);
      expect(raw.json).to.deep.equal({ error: { message: 'messages: roles must alternate', type: 'invalid_request_error', param: null, code: null }, provider: 'anthropic' });
    });

    it('passes retry-after of a 429 on', async () => {
      mock.next({ status: 429, headers: { 'retry-after': '7' } });
      const raw = await postJson(gw.url, '/v1/chat/completions', ask, configHeaders(route()));
      expect(raw.status).to.equal(429);
      expect(raw.headers.get('retry-after')).to.equal('7');
      expect(raw.json.error.type).to.equal('rate_limit_error');
    });

    it('ends a stream with the provider error event mid-way: one error event, no [DONE]', async () => {
      mock.next({ streamErrorAfter: 4, error: { type: 'overloaded_error', message: 'Overloaded' } });
      const raw = await postJson(gw.url, '/v1/chat/completions', { ...ask, stream: true }, configHeaders(route()));
      expect(raw.status).to.equal(200);
      const events = raw.text.trim().split('\n\n').map((e) => e.replace(/^data: /, ''));
      expect(events).to.not.include('[DONE]');
      expect(JSON.parse(events[0]!).choices[0].delta.role).to.equal('assistant');
      expect(JSON.parse(events[events.length - 1]!)).to.deep.equal({
        error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null }, provider: 'anthropic',
      });
      mock.next({ streamErrorAfter: 4 });
      const e = await apiError(async () => collect(await client().chat.completions.create({ ...ask, stream: true })));
      expect(e.message).to.contain('Overloaded');
    });

    it('fails as a whole (its status, no stream) when the error event comes before any chunk', async () => {
      mock.next({ streamErrorAfter: 0, error: { type: 'rate_limit_error', message: 'slow down' } });
      const raw = await postJson(gw.url, '/v1/chat/completions', { ...ask, stream: true }, configHeaders(route()));
      expect(raw.status).to.equal(429);
      expect(raw.headers.get('content-type')).to.match(/json/);
      expect(raw.json.error).to.include({ type: 'rate_limit_error', message: 'slow down' });
    });

    it('answers 502 when a 200 body is not a Messages API message', async () => {
      mock.next({ status: 200, body: { choices: [] } });
      const e = await apiError(() => client().chat.completions.create(ask));
      expect(e.status).to.equal(502);
    });
  });

  describe('incremental streaming', () => {
    let slow: MockAnthropic;
    before(async () => {
      slow = await startAnthropicMock({ streamChunkDelayMs: 25 });
    });
    after(async () => {
      await slow?.close();
    });

    it('sends the first chunk as soon as message_start arrives, not when the stream ends', async () => {
      const c = client({ provider: 'anthropic', api_key: 'k', custom_host: `${slow.url}/v1` });
      const started = performance.now();
      let firstAt = 0;
      for await (const _chunk of await c.chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'one two three four' }] })) {
        firstAt ||= performance.now() - started;
      }
      const total = performance.now() - started;
      // 10 events 25 ms apart: the whole stream takes >= 225 ms, the first chunk comes with the first event.
      expect(total).to.be.greaterThan(200);
      expect(firstAt).to.be.lessThan(total - 150);
    });
  });
});
