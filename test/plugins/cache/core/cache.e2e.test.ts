/**
 * cache.core + cache.simple + cache.store-memory end to end: a real gateway in front of real mock
 * OpenAI servers. Expiry runs with a fake Date only (sockets and timers stay real).
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { CHAT_BODY, startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import CachePlugin from '../../../../plugins/cache/core/index.js';
import SimpleCachePlugin from '../../../../plugins/cache/simple/index.js';
import MemoryCacheStorePlugin from '../../../../plugins/cache/store-memory/index.js';
import { CACHE_PLUGINS, FakeOutputGuard, cacheStatus, cached, chatCalls, leaf, post, type Config } from './harness.js';

const CHAT = '/v1/chat/completions';

describe('cache.simple (end to end)', () => {
  let mockA: MockOpenAI;
  let mockB: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers | undefined;

  const chat = (config: Config, body: unknown = CHAT_BODY, headers: Record<string, string> = {}) => post(gw.url, CHAT, body, config, headers);

  before(async () => {
    [mockA, mockB] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    gw = await startGateway({ composition: { plugins: [...CACHE_PLUGINS, FakeOutputGuard], disable: ['cache.semantic'] } });
  });

  after(async () => {
    await gw?.stop();
    await Promise.all([mockA?.close(), mockB?.close()]);
  });

  let n = 0;
  /** A body no other test used, so tests do not see each other's entries. */
  const fresh = (extra: Config = {}) => ({ ...CHAT_BODY, messages: [{ role: 'user', content: `question ${++n} of this run` }], ...extra });

  beforeEach(() => {
    mockA.reset();
    mockB.reset();
  });

  afterEach(() => {
    clock?.restore();
    clock = undefined;
  });

  it('answers a repeated request from the cache: MISS, then HIT with the same answer and no provider call', async () => {
    const body = fresh();
    const first = await chat(cached(mockA), body);
    expect(first.status).to.equal(200);
    expect(cacheStatus(first)).to.equal('MISS');
    const second = await chat(cached(mockA), body);
    expect(second.status).to.equal(200);
    expect(cacheStatus(second)).to.equal('HIT');
    expect(second.json).to.deep.equal(first.json);
    expect(second.headers.get('content-type')).to.match(/application\/json/);
    expect(second.headers.get('x-gw-provider')).to.equal('openai');
    expect(second.headers.get('x-gw-last-used-option-index')).to.equal('config');
    expect(chatCalls(mockA)).to.equal(1);
  });

  it('keys on the body as sent: another parameter misses, another key order hits', async () => {
    const body = fresh({ temperature: 0.2, max_tokens: 10 });
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), { ...body, temperature: 0.3 }))).to.equal('MISS');
    const reordered = { max_tokens: 10, temperature: 0.2, messages: body.messages, model: body.model };
    expect(cacheStatus(await chat(cached(mockA), reordered))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(2);
  });

  it('keys on the body after override_params: differing client values that the config overrides share an entry', async () => {
    const config = cached(mockA, { mode: 'simple' }, { override_params: { temperature: 0 } });
    const body = fresh();
    expect(cacheStatus(await chat(config, { ...body, temperature: 0.9 }))).to.equal('MISS');
    expect(cacheStatus(await chat(config, { ...body, temperature: 0.1 }))).to.equal('HIT');
    expect(mockA.requests[0]!.body.temperature).to.equal(0);
  });

  it('keys the same client body shaped by other override_params apart (the body as sent upstream differs)', async () => {
    const body = fresh();
    const cold = cached(mockA, { mode: 'simple' }, { override_params: { temperature: 0 } });
    const warm = cached(mockA, { mode: 'simple' }, { override_params: { temperature: 1 } });
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cold, body))).to.equal('MISS');
    expect(cacheStatus(await chat(warm, body))).to.equal('MISS');
    expect(cacheStatus(await chat(cold, body))).to.equal('HIT');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(3);
  });

  it('ignores trace, span and metadata headers', async () => {
    const body = fresh();
    await chat(cached(mockA), body, { 'x-gw-trace-id': 'trace-1', 'x-gw-metadata': '{"user":"a"}' });
    const again = await chat(cached(mockA), body, { 'x-gw-trace-id': 'trace-2', 'x-gw-span-id': 's', 'x-gw-metadata': '{"user":"b"}' });
    expect(cacheStatus(again)).to.equal('HIT');
  });

  it('partitions by x-gw-cache-namespace', async () => {
    const body = fresh();
    const ns = (name?: string): Record<string, string> => (name ? { 'x-gw-cache-namespace': name } : {});
    expect(cacheStatus(await chat(cached(mockA), body, ns('team-a')))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body, ns('team-b')))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body, ns('team-a')))).to.equal('HIT');
    expect(cacheStatus(await chat(cached(mockA), body, ns('team-b')))).to.equal('HIT');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(3);
  });

  it('keeps providers apart: another key or another host is another entry', async () => {
    const body = fresh();
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA, { mode: 'simple' }, { api_key: 'sk-other' }), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockB), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA, { mode: 'simple' }, { api_key: 'sk-other' }), body))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(2);
    expect(chatCalls(mockB)).to.equal(1);
  });

  it('x-gw-cache-force-refresh: true calls the provider and rewrites the entry (REFRESH)', async () => {
    const body = fresh();
    const first = await chat(cached(mockA), body);
    const refreshed = await chat(cached(mockA), body, { 'x-gw-cache-force-refresh': 'true' });
    expect(cacheStatus(refreshed)).to.equal('REFRESH');
    expect(refreshed.json.id).to.not.equal(first.json.id);
    const hit = await chat(cached(mockA), body, { 'x-gw-cache-force-refresh': 'false' });
    expect(cacheStatus(hit)).to.equal('HIT');
    expect(hit.json.id).to.equal(refreshed.json.id);
    expect(chatCalls(mockA)).to.equal(2);
  });

  it('never serves an expired entry: max_age seconds, default 3600', async () => {
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const short = fresh();
    await chat(cached(mockA, { mode: 'simple', max_age: 60 }), short);
    clock.tick(59_000);
    expect(cacheStatus(await chat(cached(mockA, { mode: 'simple', max_age: 60 }), short))).to.equal('HIT');
    clock.tick(1_000);
    expect(cacheStatus(await chat(cached(mockA, { mode: 'simple', max_age: 60 }), short))).to.equal('MISS');

    const byDefault = fresh();
    await chat(cached(mockA), byDefault);
    clock.tick(3_599_000);
    expect(cacheStatus(await chat(cached(mockA), byDefault))).to.equal('HIT');
    clock.tick(1_000);
    expect(cacheStatus(await chat(cached(mockA), byDefault))).to.equal('MISS');
  });

  it('does not store errors: a provider 500 is passed on, the next request calls the provider again', async () => {
    const body = fresh();
    mockA.next({ status: 500 });
    const failed = await chat(cached(mockA), body);
    expect(failed.status).to.equal(500);
    expect(cacheStatus(failed)).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(2);
  });

  it('does not store an answer an output guardrail denied (446) or flagged (246)', async () => {
    const body = fresh();
    const denied = await chat(cached(mockA), body, { 'x-test-guard': 'deny' });
    expect(denied.status).to.equal(446);
    const flagged = await chat(cached(mockA), body, { 'x-test-guard': 'warn' });
    expect(flagged.status).to.equal(246);
    expect(cacheStatus(flagged)).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('MISS');
    expect(cacheStatus(await chat(cached(mockA), body))).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(3);
  });

  it('a cached answer still passes the output guardrails: a hit can be denied', async () => {
    const body = fresh();
    await chat(cached(mockA), body);
    const denied = await chat(cached(mockA), body, { 'x-test-guard': 'deny' });
    expect(denied.status).to.equal(446);
    expect(cacheStatus(denied)).to.equal('HIT');
    expect(denied.json.error.code).to.equal('guardrail_denied');
    expect(chatCalls(mockA)).to.equal(1);
  });

  it('sends DISABLED without a cache config, and for a target with max_age 0', async () => {
    const plain = await chat(leaf(mockA));
    expect(plain.status).to.equal(200);
    expect(cacheStatus(plain)).to.equal('DISABLED');
    const body = fresh();
    const off = cached(mockA, { mode: 'simple', max_age: 0 });
    expect(cacheStatus(await chat(off, body))).to.equal('DISABLED');
    expect(cacheStatus(await chat(off, body))).to.equal('DISABLED');
    expect(chatCalls(mockA)).to.equal(3);
  });

  it('is inherited by targets, and a child can opt out with max_age 0', async () => {
    const body = fresh();
    const config = {
      cache: { mode: 'simple' },
      strategy: { mode: 'fallback' },
      targets: [leaf(mockA), leaf(mockB, { cache: { mode: 'simple', max_age: 0 } })],
    };
    expect(cacheStatus(await chat(config, body))).to.equal('MISS');
    const hit = await chat(config, body);
    expect(cacheStatus(hit)).to.equal('HIT');
    expect(hit.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    expect(chatCalls(mockA)).to.equal(1);
  });

  it('in a fallback, stores only the answer of the target that served', async () => {
    const body = fresh();
    const config = { cache: { mode: 'simple' }, strategy: { mode: 'fallback' }, targets: [leaf(mockA), leaf(mockB)] };
    mockA.next({ status: 503 });
    const first = await chat(config, body);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
    // targets[0] has no entry (its 503 was not stored): it is called again and now answers.
    const second = await chat(config, body);
    expect(cacheStatus(second)).to.equal('MISS');
    expect(second.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[0]');
    const third = await chat(config, body);
    expect(cacheStatus(third)).to.equal('HIT');
    expect(chatCalls(mockA)).to.equal(2);
    expect(chatCalls(mockB)).to.equal(1);
  });

  it('answers a hit before the circuit breaker, retries and time-outs: a provider that hangs is never called', async () => {
    const body = fresh();
    const config = cached(mockA, { mode: 'simple' }, { request_timeout: 5000, retry: { attempts: 2 } });
    await chat(config, body);
    mockA.next({ hang: true });
    const started = performance.now();
    const hit = await chat(config, body);
    expect(cacheStatus(hit)).to.equal('HIT');
    expect(performance.now() - started).to.be.below(2000); // a call would wait out the 5 s time-out
    expect(chatCalls(mockA)).to.equal(1);
    mockA.reset();
  });

  it('does not store an answer larger than maxEntryBytes', async () => {
    const small = await startGateway({ plugins: [MemoryCacheStorePlugin, { use: CachePlugin, options: { maxEntryBytes: 1024 } }, SimpleCachePlugin] });
    try {
      const body = { ...CHAT_BODY, messages: [{ role: 'user', content: 'x'.repeat(2000) }] };
      const reply = (await postJsonVia(small, body)).headers;
      expect(reply.get('x-gw-cache-status')).to.equal('MISS');
      expect((await postJsonVia(small, body)).headers.get('x-gw-cache-status')).to.equal('MISS');
    } finally {
      await small.stop();
    }
  });

  function postJsonVia(g: TestGateway, body: unknown) {
    return post(g.url, CHAT, body, cached(mockA));
  }

  describe('refusals', () => {
    it('rejects a mode whose plugin is not loaded, naming the path', async () => {
      const reply = await chat({ strategy: { mode: 'single' }, targets: [cached(mockA, { mode: 'semantic' })] });
      expect(reply.status).to.equal(400);
      // Names the plugin to load (it said "no cache plugin for ... is loaded" before plugins owned their config).
      expect(reply.json.error.message).to.equal('config.targets.0.cache.mode: "semantic" needs plugin cache.semantic, which is not loaded');
    });

    it('rejects max_age above the cap (30 days by default)', async () => {
      const reply = await chat(cached(mockA, { mode: 'simple', max_age: 30 * 24 * 3600 + 1 }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('config.cache.max_age: must be <= 2592000 (seconds)');
    });

    it('rejects malformed cache headers with 400 before any provider call', async () => {
      const refresh = await chat(cached(mockA), fresh(), { 'x-gw-cache-force-refresh': 'yes' });
      expect(refresh.status).to.equal(400);
      expect(refresh.json.error.message).to.equal('header x-gw-cache-force-refresh: must be true or false');
      const namespace = await chat(cached(mockA), fresh(), { 'x-gw-cache-namespace': 'n'.repeat(257) });
      expect(namespace.status).to.equal(400);
      expect(namespace.json.error.param).to.equal('x-gw-cache-namespace');
      expect(chatCalls(mockA)).to.equal(0);
    });
  });
});
