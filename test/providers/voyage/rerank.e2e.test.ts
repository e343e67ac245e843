/** Voyage AI rerank end to end: top_n sent as top_k, results sorted with documents, errors in Voyage's shape. */
import { expect } from 'chai';
import VoyageProviderPlugin from '../../../providers/voyage/index.js';
import { createVoyageAdapter } from '../../../providers/voyage/adapter.js';
import { startVoyageMock, type MockVoyage } from '../../fixtures/mock-voyage.js';
import { configHeaders, postJson, startGateway, type TestGateway } from '../../helpers/gateway.js';
import type { AdapterInput } from '../../../core/index.js';

const BODY = {
  model: 'rerank-2.5',
  query: 'sunny weather in Paris',
  documents: ['Rain in London', { text: 'Sunny weather in Paris today', lang: 'en' }, 'Paris museums', 'Weather'],
};

describe('voyage: rerank (end to end)', () => {
  let mock: MockVoyage;
  let gw: TestGateway;
  let headers: Record<string, string>;

  before(async () => {
    mock = await startVoyageMock();
    gw = await startGateway({ plugins: [VoyageProviderPlugin] });
    headers = configHeaders({ provider: 'voyage', api_key: 'pa-key', custom_host: `${mock.url}/v1` });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('sends top_n as top_k and truncate as truncation, documents as texts', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', { ...BODY, top_n: 2, truncate: false }, headers);
    expect(reply.status).to.equal(200);
    const sent = mock.requests[0]!;
    expect(sent.path).to.equal('/v1/rerank');
    expect(sent.headers['authorization']).to.equal('Bearer pa-key');
    expect(sent.body).to.deep.equal({
      query: BODY.query, documents: ['Rain in London', 'Sunny weather in Paris today', 'Paris museums', 'Weather'], model: 'rerank-2.5', top_k: 2, truncation: false,
    });
    expect(reply.json.results.map((r: { index: number }) => r.index)).to.deep.equal([1, 0]); // ties (0.25) go by index
  });

  it('answers the unified list: sorted results with document text, model, id, usage, provider', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', BODY, headers);
    expect(reply.status).to.equal(200);
    const { results } = reply.json;
    expect(results).to.have.length(4);
    const scores = results.map((r: { relevance_score: number }) => r.relevance_score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    expect(results[0]).to.deep.equal({ index: 1, relevance_score: 1, document: { text: 'Sunny weather in Paris today' } });
    expect(reply.json).to.include({ object: 'list', model: 'rerank-2.5', provider: 'voyage' });
    expect(reply.json.id).to.match(/^rerank-/);
    expect(reply.json.usage.search_units).to.equal(1);
    expect(reply.json.usage.total_tokens).to.be.greaterThan(0);
    expect(reply.headers.get('x-gw-provider')).to.equal('voyage');
  });

  it('leaves documents out with return_documents: false', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', { ...BODY, return_documents: false }, headers);
    expect(reply.json.results.every((r: object) => !('document' in r))).to.equal(true);
  });

  it('passes Voyage\'s detail message and status on', async () => {
    mock.next({ status: 401 });
    const reply = await postJson(gw.url, '/v1/rerank', BODY, headers);
    expect(reply.status).to.equal(401);
    expect(reply.json).to.deep.include({ provider: 'voyage' });
    expect(reply.json.error.message).to.equal('Provided API key is invalid.');
    mock.next({ status: 422, body: { detail: [{ loc: ['body', 'query'], msg: 'field required' }, { msg: 'bad model' }] } });
    const invalid = await postJson(gw.url, '/v1/rerank', BODY, headers);
    expect(invalid.status).to.equal(422);
    expect(invalid.json.error.message).to.equal('field required; bad model');
  });

  it('answers 502 when Voyage resets the connection or names a document that does not exist', async () => {
    mock.next({ reset: true });
    expect((await postJson(gw.url, '/v1/rerank', BODY, headers)).status).to.equal(502);
    mock.next({ status: 200, body: { object: 'list', data: [{ index: 9, relevance_score: 0.5 }], model: 'rerank-2.5', usage: { total_tokens: 1 } } });
    const reply = await postJson(gw.url, '/v1/rerank', BODY, headers);
    expect(reply.status).to.equal(502);
    expect(reply.json.provider).to.equal('voyage');
  });

  it('chat is not a Voyage endpoint: 400', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'x' }] }, headers);
    expect(reply.status).to.equal(400);
    expect(reply.json.error.code).to.equal('unsupported_endpoint');
  });
});

describe('voyage: adapter', () => {
  it('defaults to https://api.voyageai.com/v1/rerank and requires a key', async () => {
    const adapter = createVoyageAdapter();
    const body = { model: 'rerank-2.5', query: 'q', documents: ['a'] };
    const request = await adapter.endpoints['rerank']!.request({ target: { provider: 'voyage', api_key: 'k' }, body } as unknown as AdapterInput);
    expect(request.url).to.equal('https://api.voyageai.com/v1/rerank');
    expect(adapter.validateTarget!({ provider: 'voyage' }, 'targets.2')).to.deep.equal([
      { path: 'targets.2.api_key', rule: 'is required for provider "voyage" (or set custom_host)' },
    ]);
  });
});
