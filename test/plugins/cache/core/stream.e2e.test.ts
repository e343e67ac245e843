/**
 * Streams and the cache, seen by the official openai SDK: a plain and a streamed request share an
 * entry; a streamed hit is a well-formed SSE replay; a streamed miss is recorded as it passes and
 * stored only when complete.
 */
import { expect } from 'chai';
import OpenAI, { APIError } from 'openai';
import { CHAT_BODY, configHeaders, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, post } from './harness.js';

const WEATHER_TOOL = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('cache.simple: streams (end to end, openai SDK)', () => {
  let mock: MockOpenAI;
  let slowMock: MockOpenAI;
  let gw: TestGateway;
  let n = 0;

  const client = (target: MockOpenAI = mock, headers: Record<string, string> = {}) => new OpenAI({
    apiKey: 'sk-x',
    baseURL: gw.url + '/v1',
    maxRetries: 0,
    defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(cached(target)), ...headers },
  });
  const question = () => `stream question ${++n}`;

  async function streamText(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    return { chunks, text };
  }

  before(async () => {
    [mock, slowMock] = await Promise.all([startMockOpenAI(), startMockOpenAI({ streamChunkDelayMs: 25 })]);
    gw = await startGateway({ plugins: CACHE_PLUGINS });
  });

  after(async () => {
    await gw?.stop();
    await Promise.all([mock?.close(), slowMock?.close()]);
  });

  beforeEach(() => {
    mock.reset();
    slowMock.reset();
  });

  it('serves a streamed request from an entry a plain request stored, as a replay the SDK reads', async () => {
    const messages = [{ role: 'user' as const, content: question() }];
    const plain = await client().chat.completions.create({ model: 'gpt-4o-mini', messages });
    const { data: stream, response } = await client().chat.completions
      .create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('HIT');
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
    const { chunks, text } = await streamText(stream);
    expect(text).to.equal(plain.choices[0]!.message.content);
    expect(chunks[0]!.choices[0]!.delta.role).to.equal('assistant');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === plain.id && c.model === plain.model)).to.equal(true);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish!.choices[0]!.finish_reason).to.equal('stop');
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).to.deep.equal([]);
    expect(last.usage).to.deep.equal(plain.usage);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).to.equal(true);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('ends the replay with data: [DONE], and sends no usage chunk unless asked', async () => {
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: question() }] };
    await post(gw.url, '/v1/chat/completions', body, cached(mock));
    const res = await fetch(gw.url + '/v1/chat/completions', { method: 'POST', headers: configHeaders(cached(mock)), body: JSON.stringify({ ...body, stream: true }) });
    const text = await res.text();
    expect(cacheStatus(res)).to.equal('HIT');
    expect(text.endsWith('data: [DONE]\n\n')).to.equal(true);
    const events = text.split('\n\n').filter(Boolean).map((e) => e.replace(/^data: /, ''));
    expect(events.slice(0, -1).every((e) => !('usage' in JSON.parse(e)))).to.equal(true);
  });

  it('records a streamed miss as it passes and serves it to a plain request, usage included', async () => {
    const messages = [{ role: 'user' as const, content: question() }];
    const { data: stream, response } = await client().chat.completions
      .create({ model: 'gpt-4o-mini', messages, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('MISS');
    const { chunks, text } = await streamText(stream);
    const { data: plain, response: plainResponse } = await client().chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(plainResponse.headers.get('x-gw-cache-status')).to.equal('HIT');
    expect(plain.object).to.equal('chat.completion');
    expect(plain.id).to.equal(chunks[0]!.id);
    expect(plain.choices[0]!.message).to.include({ role: 'assistant', content: text });
    expect(plain.choices[0]!.finish_reason).to.equal('stop');
    expect(plain.usage).to.deep.equal(chunks[chunks.length - 1]!.usage);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('stores and replays tool calls: the SDK stream helper rebuilds the same completion', async () => {
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: question() }], tools: [WEATHER_TOOL] };
    const missed = await client().chat.completions.stream(params).finalChatCompletion();
    expect(missed.choices[0]!.message.tool_calls).to.have.length(1);
    const { data: plain, response } = await client().chat.completions.create(params).withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('HIT');
    expect(plain.choices[0]!.finish_reason).to.equal('tool_calls');
    expect(plain.choices[0]!.message.content).to.equal(null);
    const call = plain.choices[0]!.message.tool_calls![0]!;
    expect(call).to.deep.equal(missed.choices[0]!.message.tool_calls![0]);
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).to.deep.equal({ city: 'Paris' });
    const replayed = await client().chat.completions.stream(params).finalChatCompletion();
    expect(replayed.choices[0]!.message.tool_calls).to.deep.equal(plain.choices[0]!.message.tool_calls);
    expect(replayed.choices[0]!.finish_reason).to.equal('tool_calls');
    expect(chatCalls(mock)).to.equal(1);
  });

  it('replays every choice of an n > 1 answer', async () => {
    const params = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: question() }], n: 2 };
    const plain = await client().chat.completions.create(params);
    const replayed = await client().chat.completions.stream(params).finalChatCompletion();
    expect(replayed.choices.map((c) => c.message.content)).to.deep.equal(plain.choices.map((c) => c.message.content));
    expect(replayed.choices.map((c) => c.index)).to.deep.equal([0, 1]);
  });

  it('never stores a stream the provider cut: the client sees the error event, the next request misses', async () => {
    const messages = [{ role: 'user' as const, content: question() }];
    mock.next({ streamCutAfter: 2 });
    const cut = await client().chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
    let failure: unknown;
    try {
      for await (const _ of cut) { /* read until the error event */ }
    } catch (e) {
      failure = e;
    }
    expect(failure).to.be.instanceOf(APIError);
    const { response } = await client().chat.completions.create({ model: 'gpt-4o-mini', messages }).withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('MISS');
    expect(chatCalls(mock)).to.equal(2);
  });

  it('passes a recorded stream on chunk by chunk, without waiting for its end', async () => {
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: question() }], stream: true };
    const started = performance.now();
    const res = await fetch(gw.url + '/v1/chat/completions', { method: 'POST', headers: configHeaders(cached(slowMock)), body: JSON.stringify(body) });
    expect(cacheStatus(res)).to.equal('MISS');
    const reader = res.body!.getReader();
    await reader.read();
    const firstAt = performance.now() - started;
    while (!(await reader.read()).done) { /* the rest: 6 events, 25 ms apart upstream */ }
    const endAt = performance.now() - started;
    expect(firstAt).to.be.below(endAt / 2);
  });

  it('never stores a stream the client left', async () => {
    const body = { ...CHAT_BODY, messages: [{ role: 'user', content: question() }], stream: true };
    const abort = new AbortController();
    const res = await fetch(gw.url + '/v1/chat/completions', { method: 'POST', headers: configHeaders(cached(slowMock)), body: JSON.stringify(body), signal: abort.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).to.match(/^data: /);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200)); // longer than the rest of the stream would have taken
    const again = await post(gw.url, '/v1/chat/completions', { ...body, stream: false }, cached(slowMock));
    expect(cacheStatus(again)).to.equal('MISS');
  });

  it('shares entries between plain and streamed text completions', async () => {
    const prompt = question();
    const plain = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt });
    const { data: stream, response } = await client().completions
      .create({ model: 'gpt-3.5-turbo-instruct', prompt, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('HIT');
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.object === 'text_completion')).to.equal(true);
    expect(chunks.map((c) => c.choices[0]?.text ?? '').join('')).to.equal(plain.choices[0]!.text);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0]!.finish_reason).to.equal('stop');
    expect(chunks[chunks.length - 1]!.usage).to.deep.equal(plain.usage);

    const streamedPrompt = question();
    const streamed = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: streamedPrompt, stream: true });
    let text = '';
    for await (const chunk of streamed) text += chunk.choices[0]?.text ?? '';
    const { data: hit, response: hitResponse } = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: streamedPrompt }).withResponse();
    expect(hitResponse.headers.get('x-gw-cache-status')).to.equal('HIT');
    expect(hit.choices[0]!.text).to.equal(text);
    expect(mock.requests.length).to.equal(2);
  });
});
