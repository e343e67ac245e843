/**
 * cache.semantic end to end: chat from one mock, embeddings from another (the mock's deterministic
 * bag-of-words vectors), so that embeddings faults can be scripted apart from chat.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import sinon from 'sinon';
import SemanticCachePlugin from '../../../../plugins/cache/semantic/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { embed } from '../../../fixtures/openai-wire.js';
import { CACHE_PLUGINS, cacheStatus, cached, chatCalls, post, type Config } from '../core/harness.js';

const DIMS = 256;
const cosine = (a: string, b: string) => {
  const x = embed(a, DIMS);
  const y = embed(b, DIMS);
  return x.reduce((s, v, i) => s + v * y[i]!, 0);
};

describe('cache.semantic (end to end)', () => {
  let chatMock: MockOpenAI;
  let embedMock: MockOpenAI;
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers | undefined;
  let n = 0;

  const semantic = (extra: Config = {}, cache: Config = { mode: 'semantic' }) => cached(chatMock, cache, extra);
  const ask = (content: string, extra: Record<string, unknown> = {}, config = semantic(), headers: Record<string, string> = {}) =>
    post(gw.url, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra }, config, headers);
  const embedCalls = () => embedMock.requests.filter((r) => r.path.endsWith('/embeddings')).length;
  /** A topic word no other test uses, so tests do not hit each other's entries. */
  const topic = () => `topic${++n}x`;

  const start = (options: Record<string, unknown> = {}) => startGateway({
    plugins: [...CACHE_PLUGINS, {
      use: SemanticCachePlugin,
      options: { provider: 'openai', api_key: 'sk-embed', custom_host: `${embedMock.url}/v1`, model: 'text-embedding-3-small', dimensions: DIMS, timeoutMs: 2000, ...options },
    }],
  });

  before(async () => {
    [chatMock, embedMock] = await Promise.all([startMockOpenAI(), startMockOpenAI()]);
    gw = await start();
  });

  after(async () => {
    await gw?.stop();
    await Promise.all([chatMock?.close(), embedMock?.close()]);
  });

  beforeEach(() => {
    chatMock.reset();
    embedMock.reset();
  });

  afterEach(() => {
    clock?.restore();
    clock = undefined;
  });

  it('serves a paraphrase above the threshold as a SEMANTIC HIT with the stored answer', async () => {
    const t = topic();
    const first = await ask(`What is the capital of ${t}?`);
    expect(cacheStatus(first)).to.equal('MISS');
    expect(cosine(`user: What is the capital of ${t}?`, `user: ${t}: what is the CAPITAL of`)).to.be.at.least(0.95);
    const paraphrase = await ask(`${t}: what is the CAPITAL of`);
    expect(paraphrase.status).to.equal(200);
    expect(cacheStatus(paraphrase)).to.equal('SEMANTIC HIT');
    expect(paraphrase.json).to.deep.equal(first.json);
    expect(chatCalls(chatMock)).to.equal(1);
    // One embedding per request, sent as configured.
    expect(embedCalls()).to.equal(2);
    expect(embedMock.requests[0]!.body).to.deep.equal({ model: 'text-embedding-3-small', input: `user: What is the capital of ${t}?`, dimensions: DIMS });
    expect(embedMock.requests[0]!.headers.authorization).to.equal('Bearer sk-embed');
  });

  it('answers an exact repeat as a HIT without an embeddings call', async () => {
    const content = `Name three rivers of ${topic()}.`;
    await ask(content);
    const repeat = await ask(content);
    expect(cacheStatus(repeat)).to.equal('HIT');
    expect(embedCalls()).to.equal(1);
  });

  it('misses below the threshold', async () => {
    const t = topic();
    const stored = `user: What is the capital of ${t}?`;
    const other = `user: What is the population of ${t} in winter?`;
    const similarity = cosine(stored, other);
    expect(similarity).to.be.below(0.95).and.above(0.3);
    await ask(`What is the capital of ${t}?`);
    expect(cacheStatus(await ask(`What is the population of ${t} in winter?`))).to.equal('MISS');
    expect(chatCalls(chatMock)).to.equal(2);
  });

  it('compares only within the same model, params and namespace', async () => {
    const t = topic();
    await ask(`What is the capital of ${t}?`, { temperature: 0 });
    expect(cacheStatus(await ask(`${t} capital: what is the of`, { temperature: 1 }))).to.equal('MISS');
    expect(cacheStatus(await ask(`${t} capital: what is the of`, { temperature: 0, model: 'gpt-4o' }))).to.equal('MISS');
    expect(cacheStatus(await ask(`${t} capital: what is the of`, { temperature: 0 }, semantic(), { 'x-gw-cache-namespace': 'other' }))).to.equal('MISS');
    expect(cacheStatus(await ask(`${t} capital: what is the of`, { temperature: 0 }, semantic({ api_key: 'sk-other' })))).to.equal('MISS');
    expect(cacheStatus(await ask(`${t} capital what is the of`, { temperature: 0 }))).to.equal('SEMANTIC HIT');
  });

  it('replays a semantic hit as a stream the SDK reads', async () => {
    const t = topic();
    const first = await ask(`Describe the flag of ${t}`);
    const client = new OpenAI({ apiKey: 'sk-x', baseURL: gw.url + '/v1', maxRetries: 0, defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(semantic()) } });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `describe THE FLAG of ${t}!` }], stream: true })
      .withResponse();
    expect(response.headers.get('x-gw-cache-status')).to.equal('SEMANTIC HIT');
    let text = '';
    for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).to.equal(first.json.choices[0].message.content);
  });

  it('degrades to a miss when embeddings fail or the connection resets; the client gets its answer', async () => {
    const t = topic();
    embedMock.next({ status: 500 });
    const failed = await ask(`Who wrote the anthem of ${t}?`);
    expect(failed.status).to.equal(200);
    expect(cacheStatus(failed)).to.equal('MISS');
    // That answer was stored (exact key) but not indexed: a paraphrase misses, an exact repeat hits.
    expect(cacheStatus(await ask(`Who wrote the anthem of ${t}?`))).to.equal('HIT');
    embedMock.next({ reset: true });
    expect(cacheStatus(await ask(`who WROTE the anthem of ${t}`))).to.equal('MISS');
  });

  it('bounds the embeddings call by timeoutMs: a hanging embeddings endpoint is a miss', async () => {
    const impatient = await start({ timeoutMs: 100 });
    try {
      embedMock.next({ hang: true });
      const started = performance.now();
      const hung = await post(impatient.url, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `the anthem of ${topic()}` }] }, semantic());
      expect(hung.status).to.equal(200);
      expect(cacheStatus(hung)).to.equal('MISS');
      expect(performance.now() - started).to.be.within(90, 1000);
    } finally {
      await impatient.stop();
    }
  });

  it('force refresh rewrites and indexes the entry; expired entries are never served', async () => {
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const t = topic();
    const config = semantic({}, { mode: 'semantic', max_age: 120 });
    await ask(`Largest city of ${t}?`, {}, config);
    const refreshed = await ask(`Largest city of ${t}?`, {}, config, { 'x-gw-cache-force-refresh': 'true' });
    expect(cacheStatus(refreshed)).to.equal('REFRESH');
    const hit = await ask(`largest CITY of ${t}`, {}, config);
    expect(cacheStatus(hit)).to.equal('SEMANTIC HIT');
    expect(hit.json.id).to.equal(refreshed.json.id);
    clock.tick(121_000);
    expect(cacheStatus(await ask(`largest CITY of ${t}`, {}, config))).to.equal('MISS');
  });

  it('honours a lower threshold from the plugin options', async () => {
    const loose = await start({ threshold: 0.3 });
    try {
      const t = topic();
      const q = (content: string) => post(loose.url, '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] }, semantic());
      await q(`What is the capital of ${t}?`);
      expect(cacheStatus(await q(`What is the population of ${t} in winter?`))).to.equal('SEMANTIC HIT');
      expect(cacheStatus(await q('Completely unrelated words here'))).to.equal('MISS');
    } finally {
      await loose.stop();
    }
  });
});
