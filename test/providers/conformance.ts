/**
 * The chat-adapter conformance suite: the same end-to-end tests for every provider, through a real
 * gateway, with the official openai SDK as the client and a loopback mock speaking the provider's
 * native wire format. A provider's test file calls `runConformance({...})` once.
 *
 * Every mock answers the same way (see test/fixtures/mock-*.ts): the text `echo: <last user text>`;
 * with tools, one call to the first tool with arguments {"city":"Paris"}; non-zero usage; streamed
 * text in at least 3 deltas, tool arguments in at least 2.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import type { PluginEntry } from '../../host/index.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

export interface ProviderMockHandle {
  url: string;
  requests: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: any; rawBody: string }[];
  next(...b: unknown[]): void;
  reset(): void;
  close(): Promise<void>;
}

export interface ConformanceCase {
  /** Provider id, as in x-gw-provider / config.provider. */
  provider: string;
  /** Plugin classes to add to the default preset (the provider plugin and its dependencies). */
  plugins: unknown[];
  startMock(): Promise<ProviderMockHandle>;
  /** An x-gw-config object routing to the mock. */
  config(mock: ProviderMockHandle): Record<string, unknown>;
  model: string;
  /** tools: tool-call tests (default true); streamUsage: `stream_options.include_usage` test (default true). */
  features?: { tools?: boolean; streamUsage?: boolean };
}

export const WEATHER_TOOL = Object.freeze({
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
});

const USER_TEXT = 'hello there, conformance';
const EXPECTED_TEXT = `echo: ${USER_TEXT}`;

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** The SDK's APIError thrown by `run`, or a failed assertion when it resolved. */
async function apiError(run: () => Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await run();
  } catch (e) {
    expect(e).to.be.instanceOf(OpenAI.APIError);
    return e as InstanceType<typeof OpenAI.APIError>;
  }
  return expect.fail('expected an APIError');
}

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Data payloads of a raw SSE body, in order. */
function sseDataOf(text: string): string[] {
  return text.split(/\r?\n\r?\n/).map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n')).filter((d) => d !== '');
}

export function runConformance(c: ConformanceCase): void {
  const tools = c.features?.tools ?? true;
  const streamUsage = c.features?.streamUsage ?? true;

  describe(`provider conformance: ${c.provider}`, function () {
    let mock: ProviderMockHandle;
    let gw: TestGateway;
    let client: OpenAI;
    let headers: Record<string, string>;
    const ask = { model: c.model, messages: [{ role: 'user' as const, content: USER_TEXT }] };

    before(async () => {
      mock = await c.startMock();
      gw = await startGateway({ plugins: c.plugins as PluginEntry[] });
      headers = configHeaders(c.config(mock));
      client = new OpenAI({
        apiKey: 'sk-x',
        baseURL: `${gw.url}/v1`,
        maxRetries: 0,
        defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': headers['x-gw-config']! },
      });
    });
    after(async () => {
      await gw?.stop();
      await mock?.close();
    });
    beforeEach(() => mock.reset());

    describe('chat', () => {
      it('answers plain chat with text, finish_reason stop and usage', async () => {
        const { data, response } = await client.chat.completions.create(ask).withResponse();
        expect(data.object).to.equal('chat.completion');
        expect(data.id).to.be.a('string').and.not.equal('');
        expect(data.model).to.be.a('string').and.not.equal('');
        expect(data.choices).to.have.length(1);
        expect(data.choices[0]!.message.role).to.equal('assistant');
        expect(data.choices[0]!.message.content).to.equal(EXPECTED_TEXT);
        expect(data.choices[0]!.finish_reason).to.equal('stop');
        expect(data.usage!.prompt_tokens).to.be.greaterThan(0);
        expect(data.usage!.completion_tokens).to.be.greaterThan(0);
        expect(data.usage!.total_tokens).to.equal(data.usage!.prompt_tokens + data.usage!.completion_tokens);
        expect(response.headers.get('x-gw-provider')).to.equal(c.provider);
        expect(mock.requests).to.have.length(1);
      });

      it('streams chat: chunks concatenate to the same text, one finish_reason, ends with [DONE]', async () => {
        const { data: stream, response } = await client.chat.completions.create({ ...ask, stream: true }).withResponse();
        expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
        expect(response.headers.get('x-gw-provider')).to.equal(c.provider);
        const chunks = await collect(stream);
        for (const chunk of chunks) expect(chunk.object).to.equal('chat.completion.chunk');
        const text = chunks.map((ch) => ch.choices[0]?.delta?.content ?? '').join('');
        expect(text).to.equal(EXPECTED_TEXT);
        expect(chunks.filter((ch) => ch.choices[0]?.delta?.content).length).to.be.at.least(3);
        const finishing = chunks.filter((ch) => ch.choices.some((choice) => choice.finish_reason !== null));
        expect(finishing).to.have.length(1);
        expect(finishing[0]!.choices[0]!.finish_reason).to.equal('stop');
      });

      it('streams raw SSE ending with data: [DONE] and nothing after it', async () => {
        const reply = await postJson(gw.url, '/v1/chat/completions', { ...ask, stream: true }, headers);
        expect(reply.status).to.equal(200);
        const data = sseDataOf(reply.text);
        expect(data[data.length - 1]).to.equal('[DONE]');
        expect(data.filter((d) => d === '[DONE]')).to.have.length(1);
        for (const d of data.slice(0, -1)) expect(JSON.parse(d).object).to.equal('chat.completion.chunk');
      });

      if (streamUsage) {
        it('honours stream_options.include_usage with a final usage chunk with empty choices', async () => {
          const stream = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
          const chunks = await collect(stream);
          const last = chunks[chunks.length - 1]!;
          expect(last.choices).to.deep.equal([]);
          expect(last.usage!.prompt_tokens).to.be.greaterThan(0);
          expect(last.usage!.completion_tokens).to.be.greaterThan(0);
          expect(last.usage!.total_tokens).to.equal(last.usage!.prompt_tokens + last.usage!.completion_tokens);
          expect(chunks.filter((ch) => ch.usage).length).to.equal(1);
        });
      }
    });

    if (tools) {
      describe('tool calls', () => {
        const toolAsk = { ...ask, messages: [{ role: 'user' as const, content: 'weather in Paris?' }], tools: [WEATHER_TOOL] };

        it('answers a tool call with name, JSON arguments and finish_reason tool_calls', async () => {
          const data = await client.chat.completions.create(toolAsk);
          const choice = data.choices[0]!;
          expect(choice.finish_reason).to.equal('tool_calls');
          expect(choice.message.tool_calls).to.have.length(1);
          const call = choice.message.tool_calls![0]!;
          expect(call.type).to.equal('function');
          expect(call.id).to.be.a('string').and.not.equal('');
          if (call.type !== 'function') return;
          expect(call.function.name).to.equal('get_weather');
          expect(JSON.parse(call.function.arguments)).to.deep.equal({ city: 'Paris' });
          expect(data.usage!.prompt_tokens).to.be.greaterThan(0);
        });

        it('streams a tool call: id and name once, arguments over several deltas, finish_reason tool_calls', async () => {
          const chunks = await collect(await client.chat.completions.create({ ...toolAsk, stream: true }));
          const deltas = chunks.flatMap((ch) => ch.choices[0]?.delta?.tool_calls ?? []);
          expect(deltas.length).to.be.at.least(2);
          for (const d of deltas) expect(d.index).to.equal(0);
          expect(deltas.filter((d) => d.id).map((d) => d.id)).to.have.length(1);
          expect(deltas.map((d) => d.function?.name ?? '').join('')).to.equal('get_weather');
          expect(JSON.parse(deltas.map((d) => d.function?.arguments ?? '').join(''))).to.deep.equal({ city: 'Paris' });
          const finishing = chunks.filter((ch) => ch.choices.some((choice) => choice.finish_reason !== null));
          expect(finishing).to.have.length(1);
          expect(finishing[0]!.choices[0]!.finish_reason).to.equal('tool_calls');
        });

        it('works with the SDK stream helper (finalChatCompletion)', async () => {
          const runner = client.chat.completions.stream(toolAsk);
          const final = await runner.finalChatCompletion();
          const call = final.choices[0]!.message.tool_calls![0]!;
          expect(call.type === 'function' && call.function.name).to.equal('get_weather');
          expect(final.choices[0]!.finish_reason).to.equal('tool_calls');
        });
      });
    }

    describe('errors', () => {
      it('passes a provider 4xx on with its status and provider set', async () => {
        mock.next({ status: 400 });
        const e = await apiError(() => client.chat.completions.create(ask));
        expect(e.status).to.equal(400);
        expect(e.message).to.be.a('string').and.not.equal('');
        mock.next({ status: 400 });
        const raw = await postJson(gw.url, '/v1/chat/completions', ask, headers);
        expect(raw.status).to.equal(400);
        expect(raw.json.provider).to.equal(c.provider);
        expect(raw.json.error.message).to.be.a('string').and.not.equal('');
        expect(raw.json.error.type).to.be.a('string');
      });

      it('passes a provider 4xx on for a stream request, before any chunk', async () => {
        mock.next({ status: 429 });
        const e = await apiError(() => client.chat.completions.create({ ...ask, stream: true }));
        expect(e.status).to.equal(429);
      });

      it('passes a provider 5xx on with its status and provider set', async () => {
        mock.next({ status: 500 });
        const e = await apiError(() => client.chat.completions.create(ask));
        expect(e.status).to.equal(500);
        mock.next({ status: 503 });
        const raw = await postJson(gw.url, '/v1/chat/completions', ask, headers);
        expect(raw.status).to.equal(503);
        expect(raw.json.provider).to.equal(c.provider);
      });

      it('answers 502 when the provider resets the connection', async () => {
        mock.next({ reset: true });
        const e = await apiError(() => client.chat.completions.create(ask));
        expect(e.status).to.equal(502);
        mock.next({ reset: true });
        const raw = await postJson(gw.url, '/v1/chat/completions', ask, headers);
        expect(raw.status).to.equal(502);
        expect(raw.json.provider).to.equal(c.provider);
      });

      it('ends a stream cut mid-way with one error event and no [DONE]', async () => {
        mock.next({ streamCutAfter: 3 });
        const reply = await postJson(gw.url, '/v1/chat/completions', { ...ask, stream: true }, headers);
        expect(reply.status).to.equal(200);
        const data = sseDataOf(reply.text);
        expect(data).to.not.include('[DONE]');
        const last = JSON.parse(data[data.length - 1]!);
        expect(last.error.message).to.be.a('string');
        expect(last.provider).to.equal(c.provider);
        mock.next({ streamCutAfter: 3 });
        const e = await apiError(async () => collect(await client.chat.completions.create({ ...ask, stream: true })));
        expect(e).to.be.instanceOf(OpenAI.APIError);
      });
    });
  });
}
