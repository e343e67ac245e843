/**
 * feature.messages with the official `@anthropic-ai/sdk` as the client (`baseURL` = the gateway, the
 * gateway key and config as defaultHeaders), natively (the Anthropic mock) and translated (the
 * OpenAI mock): create and stream, text, system, images, tools round trips, stop reasons, usage,
 * count_tokens both ways, bad input, provider errors and failures mid-stream.
 * (messages.e2e.test.ts checks the same routes at the wire: exact bodies and event sequences.)
 */
import Anthropic from '@anthropic-ai/sdk';
import { expect } from 'chai';
import type { MockAnthropic } from '../../../fixtures/mock-anthropic.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMessagesUpstreams, type MessagesUpstreams } from './mocks.js';

type Params = Anthropic.MessageCreateParamsNonStreaming;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WEATHER: Anthropic.Tool = {
  name: 'get_weather', description: 'Weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('feature.messages with the official Anthropic SDK (end to end)', () => {
  let anthropic: MockAnthropic;
  let openai: MockOpenAI;
  let gw: TestGateway;

  const native = () => ({ provider: 'anthropic', api_key: 'sk-ant-test', custom_host: `${anthropic.url}/v1` });
  const viaChat = () => ({ provider: 'openai', api_key: 'sk-openai-test', custom_host: `${openai.url}/v1` });
  const client = (config: Record<string, unknown>) => new Anthropic({
    apiKey: 'sk-ant-unused', baseURL: gw.url, maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) },
  });
  const ask = (text: string, extra: Partial<Params> = {}): Params => ({ model: 'some-model', max_tokens: 64, messages: [{ role: 'user', content: text }], ...extra });
  const apiError = async (run: () => Promise<unknown>): Promise<InstanceType<typeof Anthropic.APIError>> => {
    try {
      await run();
    } catch (e) {
      expect(e).to.be.instanceOf(Anthropic.APIError);
      return e as InstanceType<typeof Anthropic.APIError>;
    }
    return expect.fail('expected an APIError');
  };
  const errorBody = (e: InstanceType<typeof Anthropic.APIError>) => e.error as { type: string; error: { type: string; message: string }; provider?: string };

  let upstreams: MessagesUpstreams | undefined;
  before(async () => {
    upstreams = await startMessagesUpstreams();
    ({ anthropic, openai, gw } = upstreams);
  });
  after(() => upstreams?.stop());
  beforeEach(() => upstreams!.reset());

  for (const [name, config] of [['natively to anthropic', native], ['translated to openai', viaChat]] as const) {
    describe(name, () => {
      it('messages.create answers a Message (system, text, usage)', async () => {
        const message = await client(config()).messages.create(ask('hi', { system: [{ type: 'text', text: 'Be brief.' }] }));
        expect(message.type).to.equal('message');
        expect(message.role).to.equal('assistant');
        expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: hi' }]);
        expect(message.stop_reason).to.equal('end_turn');
        expect(message.usage.input_tokens).to.be.greaterThan(0);
        expect(message.usage.output_tokens).to.equal(Math.ceil('echo: hi'.length / 4));
      });

      it('messages.stream() gives text deltas and the final message', async () => {
        const stream = client(config()).messages.stream(ask('stream me'));
        let text = '';
        stream.on('text', (delta) => (text += delta));
        const message = await stream.finalMessage();
        expect(text).to.equal('echo: stream me');
        expect(message.content).to.deep.equal([{ type: 'text', text: 'echo: stream me' }]);
        expect(message.stop_reason).to.equal('end_turn');
        expect(message.usage.output_tokens).to.equal(Math.ceil('echo: stream me'.length / 4));
      });

      it('runs a tool round trip, streamed: tool_use (input_json_delta), then tool_result', async () => {
        const c = client(config());
        const first = await c.messages.stream(ask('Weather in Paris?', { tools: [WEATHER] })).finalMessage();
        expect(first.stop_reason).to.equal('tool_use');
        const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
        expect(call.name).to.equal('get_weather');
        expect(call.input).to.deep.equal({ city: 'Paris' });
        const second = await c.messages.create({
          model: 'some-model', max_tokens: 64, tools: [WEATHER], tool_choice: { type: 'none' },
          messages: [
            { role: 'user', content: 'Weather in Paris?' },
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] },
          ],
        });
        expect(second.stop_reason).to.equal('end_turn');
        expect(second.content.every((b) => b.type === 'text')).to.equal(true);
      });

      it('takes images (base64 and url)', async () => {
        const message = await client(config()).messages.create({
          model: 'some-model', max_tokens: 64,
          messages: [{ role: 'user', content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'text', text: 'what is this?' },
          ] }],
        });
        expect(message.type).to.equal('message');
        const sent = name === 'natively to anthropic' ? anthropic.requests[0]!.body.messages[0].content : openai.requests[0]!.body.messages[0].content;
        expect(sent).to.have.length(3);
      });

      it('countTokens answers input_tokens', async () => {
        const count = await client(config()).messages.countTokens({ model: 'some-model', messages: [{ role: 'user', content: 'count me please' }] });
        expect(count.input_tokens).to.be.a('number').and.greaterThan(0);
      });

      it('bad input is a BadRequestError whose body names the field and the rule', async () => {
        const e = await apiError(() => client(config()).messages.create(ask('x', { max_tokens: 0 })));
        expect(e).to.be.instanceOf(Anthropic.BadRequestError);
        expect(errorBody(e)).to.deep.include({ type: 'error' });
        expect(errorBody(e).error).to.include({ type: 'invalid_request_error', message: 'body.max_tokens: is required: an integer >= 1' });
        expect(anthropic.requests.length + openai.requests.length).to.equal(0);
      });
    });
  }

  it('counts natively with anthropic and estimates for openai', async () => {
    const body = { model: 'some-model', messages: [{ role: 'user' as const, content: 'x'.repeat(40) }] };
    const nativeCount = await client(native()).messages.countTokens(body).withResponse();
    expect(anthropic.requests[0]!.path).to.equal('/v1/messages/count_tokens');
    expect(nativeCount.data.input_tokens).to.be.greaterThan(0);
    expect(nativeCount.response.headers.get('x-gw-token-count')).to.equal(null);
    const estimate = await client(viaChat()).messages.countTokens(body).withResponse();
    expect(estimate.data.input_tokens).to.equal(40 / 4 + 4); // 4 characters a token, 4 per message
    expect(openai.requests).to.have.length(0);
    expect(estimate.response.headers.get('x-gw-token-count')).to.equal('estimate');
  });

  it('maps stop reasons: max_tokens natively and from a chat answer cut by length', async () => {
    const cut = await client(native()).messages.create(ask('a fairly long text that will not fit', { max_tokens: 2 }));
    expect(cut.stop_reason).to.equal('max_tokens');
    openai.next({ status: 200, body: { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'cut' }, finish_reason: 'length', logprobs: null }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } } });
    const translated = await client(viaChat()).messages.create(ask('hi'));
    expect(translated.stop_reason).to.equal('max_tokens');
    expect(translated.usage).to.deep.include({ input_tokens: 5, output_tokens: 2 });
  });

  it('a native provider error mid-stream throws from the stream with its type', async () => {
    anthropic.next({ streamErrorAfter: 3, error: { type: 'overloaded_error', message: 'Overloaded mid-stream' } });
    const e = await apiError(() => client(native()).messages.stream(ask('hi')).finalMessage());
    expect(JSON.stringify(e.error)).to.contain('overloaded_error').and.contain('Overloaded mid-stream');
  });

  it('a translated stream cut mid-way throws from the stream (no message_stop is faked)', async () => {
    openai.next({ streamCutAfter: 2 });
    const e = await apiError(() => client(viaChat()).messages.stream(ask('a longer text to stream')).finalMessage());
    expect(JSON.stringify(e.error)).to.contain('api_error');
  });

  it('provider error statuses become the SDK errors of those statuses, with Anthropic types', async () => {
    openai.next({ status: 429 });
    const limited = await apiError(() => client(viaChat()).messages.create(ask('hi')));
    expect(limited).to.be.instanceOf(Anthropic.RateLimitError);
    expect(errorBody(limited).error.type).to.equal('rate_limit_error');
    expect(errorBody(limited).provider).to.equal('openai');
    anthropic.next({ status: 529 });
    const overloaded = await apiError(() => client(native()).messages.create(ask('hi')));
    expect(overloaded.status).to.equal(529);
    expect(errorBody(overloaded).error.type).to.equal('overloaded_error');
  });

  it('a missing gateway key is an AuthenticationError', async () => {
    const bare = new Anthropic({ apiKey: 'sk-ant-unused', baseURL: gw.url, maxRetries: 0, defaultHeaders: { 'x-gw-config': JSON.stringify(native()) } });
    const e = await apiError(() => bare.messages.create(ask('hi')));
    expect(e).to.be.instanceOf(Anthropic.AuthenticationError);
    expect(errorBody(e).error.type).to.equal('authentication_error');
  });
});
