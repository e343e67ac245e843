/**
 * feature.messages end to end: a Messages API client (messages-client.ts, read as the Anthropic SDK
 * reads the wire) → a real gateway → (a) the loopback Anthropic mock, natively, and (b) the loopback
 * OpenAI mock, translated through chat. Both mocks check what they receive as their APIs do.
 */
import { expect } from 'chai';
import { MOCK_TOOL_PREAMBLE, type MockAnthropic } from '../../../fixtures/mock-anthropic.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { apiError, messagesClient } from './messages-client.js';
import { startMessagesUpstreams, type MessagesUpstreams } from './mocks.js';

const CLAUDE = 'claude-sonnet-4-5';
const GPT = 'gpt-4o-mini';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WEATHER = { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('feature.messages (end to end)', () => {
  let anthropic: MockAnthropic;
  let openai: MockOpenAI;
  let gw: TestGateway;

  const native = (extra: Record<string, unknown> = {}) => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${anthropic.url}/v1`, ...extra });
  const viaChat = (extra: Record<string, unknown> = {}) => ({ provider: 'openai', api_key: 'sk-openai-test', custom_host: `${openai.url}/v1`, ...extra });
  const client = (config: Record<string, unknown>, headers: Record<string, string> = {}) =>
    messagesClient(gw.url, { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config), ...headers });
  const chatBody = () => openai.requests[openai.requests.length - 1]!.body;

  let upstreams: MessagesUpstreams | undefined;
  before(async () => {
    upstreams = await startMessagesUpstreams();
    ({ anthropic, openai, gw } = upstreams);
  });
  after(() => upstreams?.stop());
  beforeEach(() => upstreams!.reset());

  describe('natively to anthropic', () => {
    it('passes the body as it is and the Message back as it is', async () => {
      const body = {
        model: CLAUDE, max_tokens: 256, system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'hi' }], metadata: { user_id: 'u-1' }, top_k: 5,
      };
      const { message, headers } = await client(native()).create(body);
      expect(anthropic.requests).to.have.length(1);
      const rec = anthropic.requests[0]!;
      expect(rec.path).to.equal('/v1/messages');
      expect(rec.body).to.deep.equal(body);
      expect(rec.headers['x-api-key']).to.equal('sk-ant-test');
      expect(rec.headers['anthropic-version']).to.equal('2023-06-01');
      expect(Object.keys(rec.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
      expect(message).to.deep.include({ id: 'msg_mock_1', type: 'message', role: 'assistant', model: CLAUDE, stop_reason: 'end_turn' });
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: hi' }]);
      expect(message.usage.cache_read_input_tokens).to.be.greaterThan(0);
      expect(headers.get('x-gw-provider')).to.equal('anthropic');
    });

    it('streams the provider events one by one, unchanged', async () => {
      const { events, message } = await client(native()).stream({ model: CLAUDE, max_tokens: 256, messages: [{ role: 'user', content: 'stream me' }] });
      const types = events.map((e) => e.event);
      expect(types[0]).to.equal('message_start');
      expect(types).to.include('ping');
      expect(types.filter((t) => t === 'content_block_delta').length).to.be.at.least(3);
      expect(types.slice(-2)).to.deep.equal(['message_delta', 'message_stop']);
      for (const e of events) expect(e.data.type).to.equal(e.event);
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: stream me' }]);
      expect(message.stop_reason).to.equal('end_turn');
      expect(anthropic.requests[0]!.body.stream).to.equal(true);
    });

    it('runs a tool round trip (tool_use, then tool_result) as the API does', async () => {
      const c = client(native());
      const first = await c.create({ model: CLAUDE, max_tokens: 256, tools: [WEATHER], messages: [{ role: 'user', content: 'Weather in Paris?' }] });
      expect(first.message.stop_reason).to.equal('tool_use');
      expect(first.message.content[0]).to.deep.equal({ type: 'text', text: MOCK_TOOL_PREAMBLE });
      const call = first.message.content.find((b: any) => b.type === 'tool_use');
      expect(call).to.include({ name: 'get_weather' });
      expect(call.input).to.deep.equal({ city: 'Paris' });
      const second = await c.create({
        model: CLAUDE, max_tokens: 256, tools: [WEATHER],
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] },
        ],
      });
      expect(anthropic.requests[1]!.body.messages[2].content[0]).to.deep.equal({ type: 'tool_result', tool_use_id: call.id, content: 'sunny' });
      expect(second.message.content.some((b: any) => b.type === 'tool_use')).to.equal(true);
    });

    it('streams thinking natively: thinking_delta and signature_delta pass as they came', async () => {
      const { events, message } = await client(native()).stream({
        model: CLAUDE, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'think' }],
      });
      expect(events.some((e) => e.data.delta?.type === 'thinking_delta')).to.equal(true);
      expect(events.some((e) => e.data.delta?.type === 'signature_delta')).to.equal(true);
      expect(message.content[0]).to.include({ type: 'thinking' });
      expect(message.content[0].signature).to.match(/^sig_mock_/);
      expect(message.content[1]).to.deep.equal({ type: 'text', text: 'echo: think' });
      expect(anthropic.requests[0]!.body.thinking).to.deep.equal({ type: 'enabled', budget_tokens: 1024 });
    });

    it('passes the client\'s anthropic-beta header on, and no other client header', async () => {
      await client(native(), { 'anthropic-beta': 'prompt-caching-2024-07-31', 'x-custom': 'no' }).create({ model: CLAUDE, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
      const rec = anthropic.requests[0]!;
      expect(rec.headers['anthropic-beta']).to.equal('prompt-caching-2024-07-31');
      expect(rec.headers['x-custom']).to.equal(undefined);
      expect(rec.headers['x-api-key']).to.equal('sk-ant-test');
    });

    it('counts tokens with the provider (POST /v1/messages/count_tokens)', async () => {
      const result = await client(native()).countTokens({ model: CLAUDE, system: 'sys', messages: [{ role: 'user', content: 'count these words' }] });
      expect(anthropic.requests[0]!.path).to.equal('/v1/messages/count_tokens');
      expect(anthropic.requests[0]!.body).to.deep.equal({ model: CLAUDE, system: 'sys', messages: [{ role: 'user', content: 'count these words' }] });
      expect(result.input_tokens).to.equal(Math.ceil('sys\ncount these words'.length / 4));
      expect(result.headers.get('x-gw-token-count')).to.equal(null);
    });

    it('answers a provider error with its status and Anthropic error type', async () => {
      anthropic.next({ status: 529 });
      const e = await apiError(() => client(native()).create({ model: CLAUDE, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }));
      expect(e.status).to.equal(529);
      expect(e.body).to.deep.include({ type: 'error', provider: 'anthropic' });
      expect(e.body!['error']).to.include({ type: 'overloaded_error', message: 'Overloaded' });
    });

    it('ends a stream with the provider error event when the provider fails mid-stream', async () => {
      anthropic.next({ streamErrorAfter: 3, error: { type: 'overloaded_error', message: 'Overloaded mid-stream' } });
      const e = await apiError(() => client(native()).stream({ model: CLAUDE, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] }));
      expect(e.body).to.deep.equal({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded mid-stream' } });
      expect(e.events!.map((x) => x.event)).to.not.include('message_stop');
      expect(e.events!.filter((x) => x.event === 'error')).to.have.length(1);
    });

    it('ends a cut stream with an error event of its own', async () => {
      anthropic.next({ streamCutAfter: 2 });
      const e = await apiError(() => client(native()).stream({ model: CLAUDE, max_tokens: 256, messages: [{ role: 'user', content: 'hi' }] }));
      expect(e.body!['type']).to.equal('error');
      expect(e.body!['error']).to.include({ type: 'api_error' });
      expect(e.body!['error'].message).to.contain('anthropic');
      expect(e.events!.map((x) => x.event)).to.not.include('message_stop');
    });
  });

  describe('translated through chat (openai)', () => {
    it('sends system, turns and parameters as a chat body and answers a Message', async () => {
      const { message, headers } = await client(viaChat()).create({
        model: GPT, max_tokens: 64, system: 'Be brief.', temperature: 0.5, top_p: 0.9, top_k: 3, stop_sequences: ['END'],
        metadata: { user_id: 'user-7' },
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          { role: 'user', content: [{ type: 'text', text: 'second' }] },
        ],
      });
      expect(openai.requests[0]!.path).to.equal('/v1/chat/completions');
      expect(openai.requests[0]!.headers['authorization']).to.equal('Bearer sk-openai-test');
      expect(chatBody()).to.deep.equal({
        model: GPT, max_completion_tokens: 64, temperature: 0.5, top_p: 0.9, stop: ['END'], user: 'user-7',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: 'second' },
        ],
      });
      expect(message).to.deep.include({ type: 'message', role: 'assistant', model: GPT, stop_reason: 'end_turn', stop_sequence: null });
      expect(message.id).to.match(/^chatcmpl-mock-/);
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: second' }]);
      expect(message.usage.input_tokens).to.be.greaterThan(0);
      expect(message.usage.output_tokens).to.equal(Math.ceil('echo: second'.length / 4));
      expect(headers.get('x-gw-provider')).to.equal('openai');
    });

    it('joins system blocks and sends images (base64 and url) as image_url parts', async () => {
      await client(viaChat()).create({
        model: GPT, max_tokens: 64, system: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }],
        messages: [{ role: 'user', content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
          { type: 'text', text: 'what is this?' },
        ] }],
      });
      const body = chatBody();
      expect(body.messages[0]).to.deep.equal({ role: 'system', content: 'one\ntwo' });
      expect(body.messages[1].content).to.deep.equal([
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        { type: 'text', text: 'what is this?' },
      ]);
    });

    it('translates tools both ways: tool_choice any, tool_use answer, tool_result follow-up', async () => {
      const c = client(viaChat());
      const first = await c.create({
        model: GPT, max_tokens: 64, tools: [WEATHER], tool_choice: { type: 'any', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      expect(chatBody().tools).to.deep.equal([{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: WEATHER.input_schema } }]);
      expect(chatBody().tool_choice).to.equal('required');
      expect(chatBody().parallel_tool_calls).to.equal(false);
      expect(first.message.stop_reason).to.equal('tool_use');
      const call = first.message.content.find((b: any) => b.type === 'tool_use');
      expect(call).to.include({ type: 'tool_use', name: 'get_weather' });
      expect(call.id).to.be.a('string').and.not.equal('');
      expect(call.input).to.deep.equal({ city: 'Paris' });

      await c.create({
        model: GPT, max_tokens: 64, tools: [WEATHER], tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, call] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'sunny' }] }, { type: 'text', text: 'and?' }] },
        ],
      });
      const body = chatBody();
      expect(body.tool_choice).to.deep.equal({ type: 'function', function: { name: 'get_weather' } });
      expect(body.messages.slice(1)).to.deep.equal([
        { role: 'assistant', content: 'Checking.', tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        { role: 'user', content: 'and?' },
      ]);
    });

    it('maps finish reasons to stop reasons (length → max_tokens, content_filter → refusal)', async () => {
      const answer = (finish: string) => ({
        status: 200,
        body: { id: 'chatcmpl-x', object: 'chat.completion', created: 1, model: GPT, choices: [{ index: 0, message: { role: 'assistant', content: 'cut' }, finish_reason: finish, logprobs: null }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } } },
      });
      openai.next(answer('length'), answer('content_filter'));
      const c = client(viaChat());
      const long = await c.create({ model: GPT, max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] });
      expect(long.message.stop_reason).to.equal('max_tokens');
      expect(long.message.usage).to.deep.equal({ input_tokens: 6, output_tokens: 2, cache_read_input_tokens: 4 });
      const filtered = await c.create({ model: GPT, max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] });
      expect(filtered.message.stop_reason).to.equal('refusal');
    });

    it('streams chat chunks as Messages events: message_start, ping, text deltas, message_delta with usage, message_stop', async () => {
      const { events, message } = await client(viaChat()).stream({ model: GPT, max_tokens: 64, messages: [{ role: 'user', content: 'stream me' }] });
      expect(chatBody().stream).to.equal(true);
      expect(chatBody().stream_options).to.deep.equal({ include_usage: true });
      const types = events.map((e) => e.event);
      expect(types.slice(0, 3)).to.deep.equal(['message_start', 'ping', 'content_block_start']);
      expect(types.slice(-3)).to.deep.equal(['content_block_stop', 'message_delta', 'message_stop']);
      expect(types.filter((t) => t === 'content_block_delta').length).to.be.at.least(2);
      for (const e of events) expect(e.data.type).to.equal(e.event);
      expect(events[0]!.data.message).to.deep.include({ type: 'message', role: 'assistant', model: GPT, content: [] });
      expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: stream me' }]);
      expect(message.stop_reason).to.equal('end_turn');
      expect(message.usage.output_tokens).to.equal(Math.ceil('echo: stream me'.length / 4));
      expect(message.usage.input_tokens).to.be.greaterThan(0);
    });

    it('streams tool calls as tool_use blocks with input_json_delta', async () => {
      const { events, message } = await client(viaChat()).stream({ model: GPT, max_tokens: 64, tools: [WEATHER], messages: [{ role: 'user', content: 'Weather?' }] });
      const start = events.find((e) => e.event === 'content_block_start' && e.data.content_block.type === 'tool_use')!;
      expect(start.data.content_block).to.deep.include({ name: 'get_weather', input: {} });
      expect(events.filter((e) => e.data.delta?.type === 'input_json_delta').length).to.be.at.least(2);
      const call = message.content.find((b: any) => b.type === 'tool_use');
      expect(call.input).to.deep.equal({ city: 'Paris' });
      expect(message.stop_reason).to.equal('tool_use');
    });

    it('ends a stream the provider cut with an error event and no message_stop', async () => {
      openai.next({ streamCutAfter: 2 });
      const e = await apiError(() => client(viaChat()).stream({ model: GPT, max_tokens: 64, messages: [{ role: 'user', content: 'a longer text to stream' }] }));
      expect(e.body!['type']).to.equal('error');
      expect(e.body!['error'].type).to.equal('api_error');
      expect(e.events![0]!.event).to.equal('message_start');
      expect(e.events!.map((x) => x.event)).to.not.include('message_stop');
    });

    it('estimates count_tokens for a provider that cannot count, without calling it', async () => {
      const body = { model: GPT, system: 'You are terse.', messages: [{ role: 'user', content: 'x'.repeat(400) }], tools: [WEATHER] };
      const result = await client(viaChat()).countTokens(body);
      expect(result.headers.get('x-gw-token-count')).to.equal('estimate');
      const chars = 'You are terse.'.length + 400 + JSON.stringify([WEATHER]).length;
      expect(result.input_tokens).to.equal(Math.ceil(chars / 4) + 4);
      expect(openai.requests).to.have.length(0);
    });

    it('maps a provider error to its status with an Anthropic error type', async () => {
      openai.next({ status: 429 });
      const e = await apiError(() => client(viaChat()).create({ model: GPT, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }));
      expect(e.status).to.equal(429);
      expect(e.body!['error'].type).to.equal('rate_limit_error');
      expect(e.body!['provider']).to.equal('openai');
    });

    it('refuses what chat cannot carry (a server tool) with a 400 naming it, without calling the provider', async () => {
      const e = await apiError(() => client(viaChat()).create({
        model: GPT, max_tokens: 8, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'hi' }],
      }));
      expect(e.status).to.equal(400);
      expect(e.body!['error'].type).to.equal('invalid_request_error');
      expect(e.body!['error'].message).to.contain('tools.0.type').and.contain('web_search_20250305');
      expect(openai.requests).to.have.length(0);
    });
  });

  describe('bad input', () => {
    const bad = async (body: Record<string, unknown>, field: string, rule: string) => {
      const e = await apiError(() => client(native()).create(body));
      expect(e.status).to.equal(400);
      expect(e.body!['type']).to.equal('error');
      expect(e.body!['error']).to.include({ type: 'invalid_request_error', message: `body.${field}: ${rule}` });
    };

    it('names the field and the rule, in Anthropic error shape, and calls no provider', async () => {
      await bad({ model: CLAUDE, messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens', 'is required: an integer >= 1');
      await bad({ model: CLAUDE, max_tokens: 5, messages: [] }, 'messages', 'is required: a non-empty array of messages');
      await bad({ model: CLAUDE, max_tokens: 5, messages: [{ role: 'system', content: 'x' }] }, 'messages.0.role', 'must be "user" or "assistant"');
      await bad({ model: CLAUDE, max_tokens: 5, temperature: 1.5, messages: [{ role: 'user', content: 'x' }] }, 'temperature', 'must be a number from 0 to 1');
      await bad({ model: CLAUDE, max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png' } }] }] }, 'messages.0.content.0.source.data', 'must be a non-empty base64 string');
      await bad({ model: CLAUDE, max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }, 'messages.0.content.0.type', 'tool_use blocks belong to assistant messages');
      await bad({ model: CLAUDE, max_tokens: 5, tool_choice: { type: 'tool' }, messages: [{ role: 'user', content: 'x' }] }, 'tool_choice.name', 'is required when type is "tool"');
      await bad({ model: CLAUDE, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 }, messages: [{ role: 'user', content: 'x' }] }, 'thinking.budget_tokens', 'must be less than max_tokens');
      expect(anthropic.requests).to.have.length(0);
    });

    it('checks count_tokens bodies too', async () => {
      const e = await apiError(() => client(viaChat()).countTokens({ model: GPT, messages: 'hi' }));
      expect(e.status).to.equal(400);
      expect(e.body!['error'].message).to.equal('body.messages: is required: a non-empty array of messages');
    });

    it('passthrough: the body goes untouched to a provider that speaks Messages, and is never translated for one that does not', async () => {
      const raw = { model: CLAUDE, max_tokens: 16, messages: [{ role: 'user', content: 'raw' }], unknown_field: { kept: true } };
      anthropic.next({ status: 200, body: { id: 'msg_raw', type: 'message', role: 'assistant', model: CLAUDE, content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
      const { message } = await client(native({ passthrough: true })).create(raw);
      expect(anthropic.requests[0]!.rawBody).to.equal(JSON.stringify(raw));
      expect(message.id).to.equal('msg_raw');
      const e = await apiError(() => client(viaChat({ passthrough: true })).create({}));
      expect(e.status).to.equal(400);
      expect(e.body!['error']).to.include({ type: 'invalid_request_error', code: 'unsupported_endpoint' });
      expect(openai.requests).to.have.length(0);
    });

    it('checks a body a target\'s params changed before translating it', async () => {
      const e = await apiError(() => client(viaChat({ override_params: { max_tokens: 0 } })).create({ model: GPT, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }));
      expect(e.status).to.equal(400);
      expect(e.body!['error'].message).to.equal('body.max_tokens: is required: an integer >= 1');
      expect(openai.requests).to.have.length(0);
    });

    it('answers a missing gateway key 401 in Anthropic shape', async () => {
      const res = await fetch(`${gw.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: CLAUDE, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }) });
      expect(res.status).to.equal(401);
      const body: any = await res.json();
      expect(body.type).to.equal('error');
      expect(body.error.type).to.equal('authentication_error');
    });
  });
});
