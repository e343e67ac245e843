/**
 * Cache-miss coalescing end to end: identical misses under way at once on one gateway make one
 * provider call; the others wait for its stored entry (HIT), or call the provider themselves when
 * it is not stored. A real gateway in front of mock OpenAI servers whose answers are delayed, so
 * that the later requests arrive while the first one is still being fetched.
 */
import { expect } from 'chai';
import { CHAT_BODY, configHeaders, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import CachePlugin from '../../../../plugins/cache/core/index.js';
import SimpleCachePlugin from '../../../../plugins/cache/simple/index.js';
import MemoryCacheStorePlugin from '../../../../plugins/cache/store-memory/index.js';
import SemanticCachePlugin from '../../../../plugins/cache/semantic/index.js';
import { CACHE_PLUGINS, FakeOutputGuard, cacheStatus, cached, chatCalls, eventually, post, type Config } from './harness.js';

const CHAT = '/v1/chat/completions';
/** How long the first request's provider answer is held back. */
const DELAY_MS = 400;

interface StreamReply {
  status: number;
  headers: Headers;
  chunks: any[];
  text: string;
  done: boolean;
}

/** A streamed chat request read to its end: the data events, their joined content, whether [DONE] came. */
async function streamChat(base: string, body: Config, config: Config, headers: Record<string, string> = {}): Promise<StreamReply> {
  const res = await fetch(base + CHAT, { method: 'POST', headers: configHeaders(config, headers), body: JSON.stringify({ ...body, stream: true }) });
  let raw = '';
  try {
    raw = await res.text();
  } catch {
    /* a cut stream: what arrived is enough */
  }
  const data = raw.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => e.slice(6));
  const chunks = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
  const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
  return { status: res.status, headers: res.headers, chunks, text, done: data.includes('[DONE]') };
}

function statsOf(gw: TestGateway) {
  const loaded = gw.gateway.runtime.plugins.find((p) => p.id === 'cache.core');
  return () => (loaded!.instance as CachePlugin).inFlight();
}

describe('cache.core: coalescing of identical misses (end to end)', () => {
  let mock: MockOpenAI;
  let slowStreams: MockOpenAI;
  let gw: TestGateway;
  let stats: () => { flights: number; waiters: number };
  let n = 0;

  const chat = (body: Config, config: Config = cached(mock), headers: Record<string, string> = {}) => post(gw.url, CHAT, body, config, headers);
  /** A body no other test used, so tests do not see each other's entries. */
  const fresh = (extra: Config = {}): Config => ({ ...CHAT_BODY, messages: [{ role: 'user', content: `coalescing question ${++n}` }], ...extra });
  /** Resolves once `count` requests reached the mock (so the first one holds its key). */
  const arrived = (target: MockOpenAI, count = 1) => eventually(async () => chatCalls(target) >= count);

  before(async () => {
    [mock, slowStreams] = await Promise.all([startMockOpenAI(), startMockOpenAI({ streamChunkDelayMs: 40 })]);
    gw = await startGateway({ composition: { plugins: [...CACHE_PLUGINS, FakeOutputGuard], disable: ['cache.semantic'] } });
    stats = statsOf(gw);
  });

  after(async () => {
    await gw?.stop();
    await Promise.all([mock?.close(), slowStreams?.close()]);
  });

  beforeEach(() => {
    mock.reset();
    slowStreams.reset();
  });

  // Every flight is released once its first request settled, whatever happened: nothing is kept.
  afterEach(async () => {
    await eventually(async () => stats().flights === 0 && stats().waiters === 0);
  });

  it('N identical concurrent misses make one provider call: one MISS, the others HIT with the same body', async () => {
    const body = fresh();
    mock.next({ delayMs: DELAY_MS });
    const replies = await Promise.all(Array.from({ length: 6 }, () => chat(body)));
    expect(chatCalls(mock)).to.equal(1);
    for (const reply of replies) {
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.equal(replies[0]!.json);
    }
    const statuses = replies.map(cacheStatus).sort();
    expect(statuses).to.deep.equal(['HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
    expect(stats()).to.deep.equal({ flights: 0, waiters: 0 });
  });

  it('does not coalesce other keys: another namespace or another body calls the provider', async () => {
    const body = fresh();
    mock.next({ delayMs: DELAY_MS }, { delayMs: DELAY_MS }, { delayMs: DELAY_MS });
    const replies = await Promise.all([
      chat(body),
      chat(body, cached(mock), { 'x-gw-cache-namespace': 'team-b' }),
      chat({ ...body, temperature: 0.5 }),
    ]);
    expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    expect(replies.map(cacheStatus)).to.deep.equal(['MISS', 'MISS', 'MISS']);
    expect(chatCalls(mock)).to.equal(3);
  });

  it('a failing first request (500) lets the waiters call the provider themselves, and they succeed', async () => {
    const body = fresh();
    mock.next({ status: 500, delayMs: DELAY_MS });
    const first = chat(body);
    await arrived(mock);
    const waiting = Promise.all([chat(body), chat(body), chat(body)]);
    await eventually(async () => stats().waiters === 3); // they wait rather than call
    const waiters = await waiting;
    expect((await first).status).to.equal(500);
    for (const reply of waiters) {
      expect(reply.status).to.equal(200);
      expect(cacheStatus(reply)).to.equal('MISS');
    }
    expect(chatCalls(mock)).to.equal(4);
    expect(cacheStatus(await chat(body))).to.equal('HIT');
  });

  it('an answer that is not stored (output guardrail 446) lets the waiters call the provider themselves', async () => {
    const body = fresh();
    mock.next({ delayMs: DELAY_MS });
    const denied = chat(body, cached(mock), { 'x-test-guard': 'deny' });
    await arrived(mock);
    const waiting = Promise.all([chat(body), chat(body)]);
    await eventually(async () => stats().waiters === 2);
    const waiters = await waiting;
    expect((await denied).status).to.equal(446);
    expect(waiters.map((r) => r.status)).to.deep.equal([200, 200]);
    expect(waiters.map(cacheStatus)).to.deep.equal(['MISS', 'MISS']);
    expect(chatCalls(mock)).to.equal(3);
  });

  it('a cut stream is not stored: the waiter calls the provider itself', async () => {
    const body = fresh();
    slowStreams.next({ streamCutAfter: 5 });
    const cut = streamChat(gw.url, body, cached(slowStreams));
    await arrived(slowStreams);
    const waiting = chat(body, cached(slowStreams));
    await eventually(async () => stats().waiters === 1);
    const waiter = await waiting;
    expect((await cut).done).to.equal(false);
    expect(waiter.status).to.equal(200);
    expect(cacheStatus(waiter)).to.equal('MISS');
    expect(chatCalls(slowStreams)).to.equal(2);
  });

  it('a waiter whose client goes away is released at once; the first request completes and is stored', async () => {
    const body = fresh();
    mock.next({ delayMs: 1500 });
    const first = chat(body);
    await arrived(mock);
    const controller = new AbortController();
    const gone = fetch(gw.url + CHAT, { method: 'POST', headers: configHeaders(cached(mock)), body: JSON.stringify(body), signal: controller.signal });
    await eventually(async () => stats().waiters === 1);
    controller.abort();
    await gone.then(() => expect.fail('the aborted request answered'), (e: Error) => expect(e.name).to.equal('AbortError'));
    // Released while the first request is still being fetched.
    await eventually(async () => stats().waiters === 0);
    expect(stats().flights).to.equal(1);
    const reply = await first;
    expect(reply.status).to.equal(200);
    expect(cacheStatus(reply)).to.equal('MISS');
    await eventually(async () => stats().flights === 0);
    const hit = await chat(body);
    expect(cacheStatus(hit)).to.equal('HIT');
    expect(hit.json).to.deep.equal(reply.json);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('a streamed first request is waited for until stored; a plain waiter gets its entry as a HIT', async () => {
    const body = fresh();
    const streamed = streamChat(gw.url, body, cached(slowStreams));
    await arrived(slowStreams);
    const plain = await chat(body, cached(slowStreams));
    const first = await streamed;
    expect(first.done).to.equal(true);
    expect(cacheStatus(first)).to.equal('MISS');
    expect(plain.status).to.equal(200);
    expect(cacheStatus(plain)).to.equal('HIT');
    expect(plain.json.object).to.equal('chat.completion');
    expect(plain.json.id).to.equal(first.chunks[0].id);
    expect(plain.json.choices[0].message.content).to.equal(first.text);
    expect(chatCalls(slowStreams)).to.equal(1);
  });

  it('a plain first request is waited for; a streamed waiter gets the SSE replay of its entry', async () => {
    const body = fresh();
    mock.next({ delayMs: DELAY_MS });
    const plain = chat(body);
    await arrived(mock);
    const [replay, first] = await Promise.all([streamChat(gw.url, body, cached(mock)), plain]);
    expect(cacheStatus(first)).to.equal('MISS');
    expect(replay.status).to.equal(200);
    expect(cacheStatus(replay)).to.equal('HIT');
    expect(replay.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(replay.done).to.equal(true);
    expect(replay.text).to.equal(first.json.choices[0].message.content);
    expect(replay.chunks.every((c) => c.id === first.json.id && c.object === 'chat.completion.chunk')).to.equal(true);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('a force refresh never waits; an identical miss waits for a refresh under way', async () => {
    // A refresh arriving while a miss is being fetched calls the provider itself.
    const body = fresh();
    mock.next({ delayMs: DELAY_MS });
    const first = chat(body);
    await arrived(mock);
    const refreshed = await chat(body, cached(mock), { 'x-gw-cache-force-refresh': 'true' });
    expect(cacheStatus(refreshed)).to.equal('REFRESH');
    expect(cacheStatus(await first)).to.equal('MISS');
    expect(chatCalls(mock)).to.equal(2);

    // A miss arriving while a refresh is being fetched (no entry yet) waits for the refreshed entry.
    mock.reset();
    const other = fresh();
    mock.next({ delayMs: DELAY_MS });
    const refresh = chat(other, cached(mock), { 'x-gw-cache-force-refresh': 'true' });
    await arrived(mock);
    const waiter = await chat(other);
    expect(cacheStatus(await refresh)).to.equal('REFRESH');
    expect(cacheStatus(waiter)).to.equal('HIT');
    expect(waiter.json).to.deep.equal((await refresh).json);
    expect(chatCalls(mock)).to.equal(1);
  });

  it('a waiter waits no longer than its own request_timeout, then calls the provider itself', async () => {
    const body = fresh();
    mock.next({ delayMs: 1500 });
    const first = chat(body);
    await arrived(mock);
    const started = performance.now();
    const waiter = await chat(body, cached(mock, { mode: 'simple' }, { request_timeout: 200 }));
    expect(performance.now() - started).to.be.below(1000);
    expect(waiter.status).to.equal(200);
    expect(cacheStatus(waiter)).to.equal('MISS');
    expect(chatCalls(mock)).to.equal(2);
    expect((await first).status).to.equal(200);
  });
});

describe('cache.core: coalescing options (end to end)', () => {
  let mock: MockOpenAI;
  let n = 0;
  const fresh = (): Config => ({ ...CHAT_BODY, messages: [{ role: 'user', content: `coalescing option question ${++n}` }] });
  const start = (options: Config) => startGateway({
    composition: { plugins: [MemoryCacheStorePlugin, { use: CachePlugin, options }, SimpleCachePlugin], disable: ['cache.semantic'] },
  });

  before(async () => {
    mock = await startMockOpenAI();
  });

  after(async () => {
    await mock?.close();
  });

  beforeEach(() => mock.reset());

  it('coalesceWaitMs bounds the wait of a target without request_timeout', async () => {
    const gw = await start({ coalesceWaitMs: 150 });
    try {
      const body = fresh();
      mock.next({ delayMs: 1500 });
      const first = post(gw.url, CHAT, body, cached(mock));
      await eventually(async () => chatCalls(mock) === 1);
      const started = performance.now();
      const waiter = await post(gw.url, CHAT, body, cached(mock));
      expect(performance.now() - started).to.be.below(1000);
      expect(cacheStatus(waiter)).to.equal('MISS');
      expect(chatCalls(mock)).to.equal(2);
      expect((await first).status).to.equal(200);
      await eventually(async () => statsOf(gw)().flights === 0);
    } finally {
      await gw.stop();
    }
  });

  it('coalesceWaitMs 0 turns coalescing off', async () => {
    const gw = await start({ coalesceWaitMs: 0 });
    try {
      const body = fresh();
      mock.next({ delayMs: 200 }, { delayMs: 200 });
      const replies = await Promise.all([post(gw.url, CHAT, body, cached(mock)), post(gw.url, CHAT, body, cached(mock))]);
      expect(replies.map(cacheStatus)).to.deep.equal(['MISS', 'MISS']);
      expect(chatCalls(mock)).to.equal(2);
      expect(statsOf(gw)()).to.deep.equal({ flights: 0, waiters: 0 });
    } finally {
      await gw.stop();
    }
  });
});

describe('cache.semantic: coalescing on the exact key only (end to end)', () => {
  let chatMock: MockOpenAI;
  let embedMock: MockOpenAI;
  let gw: TestGateway;
  let n = 0;
  const config = () => cached(chatMock, { mode: 'semantic' });
  const ask = (content: string) => post(gw.url, CHAT, { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, config());

  before(async () => {
    [chatMock, embedMock] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    gw = await startGateway({
      plugins: [...CACHE_PLUGINS, {
        use: SemanticCachePlugin,
        options: { provider: 'openai', api_key: 'sk-embed', custom_host: `${embedMock.url}/v1`, model: 'text-embedding-3-small', dimensions: 256 },
      }],
    });
  });

  after(async () => {
    await gw?.stop();
    await Promise.all([chatMock?.close(), embedMock?.close()]);
  });

  beforeEach(() => {
    chatMock.reset();
    embedMock.reset();
  });

  it('identical misses coalesce; a near paraphrase under way at the same time does not', async () => {
    const topic = `coalescetopic${++n}x`;
    const question = `What is the capital of ${topic}?`;
    chatMock.next({ delayMs: DELAY_MS }, { delayMs: DELAY_MS });
    const replies = await Promise.all([ask(question), ask(question), ask(`${topic}: what is the CAPITAL of`)]);
    expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    expect(replies.slice(0, 2).map(cacheStatus).sort()).to.deep.equal(['HIT', 'MISS']);
    expect(replies[0]!.json).to.deep.equal(replies[1]!.json);
    expect(cacheStatus(replies[2]!)).to.equal('MISS');
    expect(chatCalls(chatMock)).to.equal(2);
    await eventually(async () => statsOf(gw)().flights === 0);
  });
});
