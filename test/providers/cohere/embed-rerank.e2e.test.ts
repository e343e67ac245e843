/** Cohere embed and rerank end to end (the openai SDK for embeddings), error passing and target rules. */
import { expect } from 'chai';
import OpenAI from 'openai';
import CohereProviderPlugin from '../../../providers/cohere/index.js';
import { startCohereMock, type MockCohere } from '../../fixtures/mock-cohere.js';
import { embed } from '../../fixtures/openai-wire.js';
import { configHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const DOCS = ['The weather in Paris is sunny', 'Cats sleep a lot', { text: 'Paris weather report: rain', source: 'meteo' }];

describe('cohere: embed and rerank (end to end)', () => {
  let mock: MockCohere;
  let gw: TestGateway;
  let config: Record<string, unknown>;

  before(async () => {
    mock = await startCohereMock();
    gw = await startGateway({ plugins: [CohereProviderPlugin] });
    config = { provider: 'cohere', api_key: 'co-key', custom_host: `${mock.url}/v2` };
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  describe('embed', () => {
    const client = () => new OpenAI({
      apiKey: 'sk-x', baseURL: `${gw.url}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': JSON.stringify(config) },
    });

    it('embeds through the SDK (its default base64 encoding), sending Cohere\'s v2 body', async () => {
      const res = await client().embeddings.create({ model: 'embed-v4.0', input: ['hello world', 'bye'] });
      expect(res.object).to.equal('list');
      expect(res.data.map((d) => d.index)).to.deep.equal([0, 1]);
      const expected = embed('hello world', 16);
      res.data[0]!.embedding.forEach((x, i) => expect(x).to.be.closeTo(expected[i]!, 1e-6));
      expect(res.usage.prompt_tokens).to.be.greaterThan(0);
      const sent = mock.requests[0]!;
      expect(sent.path).to.equal('/v2/embed');
      expect(sent.headers['authorization']).to.equal('Bearer co-key');
      expect(sent.body).to.deep.equal({ model: 'embed-v4.0', texts: ['hello world', 'bye'], input_type: 'search_document', embedding_types: ['float'] });
    });

    it('answers float arrays, and passes input_type and dimensions on', async () => {
      const reply = await postJson(gw.url, '/v1/embeddings', { model: 'embed-v4.0', input: 'query text', input_type: 'search_query', dimensions: 8, encoding_format: 'float' }, configHeaders(config));
      expect(reply.status).to.equal(200);
      expect(reply.json.data[0].embedding).to.have.length(8);
      expect(reply.json.model).to.equal('embed-v4.0');
      expect(mock.requests[0]!.body).to.include({ input_type: 'search_query', output_dimension: 8 });
    });

    it('refuses token-id input with a 400 before calling Cohere', async () => {
      const reply = await postJson(gw.url, '/v1/embeddings', { model: 'embed-v4.0', input: [1, 2, 3] }, configHeaders(config));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.param).to.equal('input');
      expect(mock.requests).to.have.length(0);
    });
  });

  describe('rerank', () => {
    it('sends documents as texts and answers results sorted, with documents and search units', async () => {
      const reply = await postJson(gw.url, '/v1/rerank', { model: 'rerank-v3.5', query: 'Paris weather', documents: DOCS, max_tokens_per_doc: 512 }, configHeaders(config));
      expect(reply.status).to.equal(200);
      expect(mock.requests[0]!.path).to.equal('/v2/rerank');
      expect(mock.requests[0]!.body).to.deep.equal({
        model: 'rerank-v3.5', query: 'Paris weather', documents: ['The weather in Paris is sunny', 'Cats sleep a lot', 'Paris weather report: rain'], max_tokens_per_doc: 512,
      });
      const { results } = reply.json;
      const scores = results.map((r: { relevance_score: number }) => r.relevance_score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
      expect(results.map((r: { index: number }) => r.index)).to.deep.equal([0, 2, 1]);
      expect(results[1].document).to.deep.equal({ text: 'Paris weather report: rain' });
      expect(reply.json).to.include({ object: 'list', model: 'rerank-v3.5', provider: 'cohere' });
      expect(reply.json.id).to.be.a('string');
      expect(reply.json.usage).to.deep.equal({ search_units: 1 });
      expect(reply.headers.get('x-gw-provider')).to.equal('cohere');
    });

    it('honours top_n and return_documents: false; rank_fields render objects as field lines', async () => {
      const reply = await postJson(gw.url, '/v1/rerank', {
        model: 'rerank-v3.5', query: 'rain', top_n: 1, return_documents: false, rank_fields: ['source', 'text'], documents: DOCS,
      }, configHeaders(config));
      expect(reply.status).to.equal(200);
      expect(reply.json.results).to.deep.equal([{ index: 2, relevance_score: 1 }]);
      expect(mock.requests[0]!.body.top_n).to.equal(1);
      expect(mock.requests[0]!.body.documents[2]).to.equal('source: meteo\ntext: Paris weather report: rain');
    });

    it('merges provider_params into Cohere\'s body', async () => {
      await postJson(gw.url, '/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: ['a'], provider_params: { max_tokens_per_doc: 99 } }, configHeaders(config));
      expect(mock.requests[0]!.body.max_tokens_per_doc).to.equal(99);
    });
  });

  describe('errors', () => {
    it('passes Cohere\'s message and status on, provider cohere', async () => {
      mock.next({ status: 429 });
      const reply = await postJson(gw.url, '/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: ['a'] }, configHeaders(config));
      expect(reply.status).to.equal(429);
      expect(reply.json).to.deep.include({ provider: 'cohere' });
      expect(reply.json.error.message).to.equal('You are past the per minute request limit, please wait and try again later.');
      expect(reply.json.error.type).to.equal('rate_limit_error');
    });

    it('a wrong key comes back as Cohere\'s 401', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: 'command-a', messages: [{ role: 'user', content: 'x' }] },
        configHeaders({ ...config, api_key: '' }));
      expect(reply.status).to.equal(401);
      expect(reply.json.error.message).to.equal('invalid api token');
    });

    it('a body Cohere does not document is a 502', async () => {
      mock.next({ status: 200, body: { unexpected: true } });
      const reply = await postJson(gw.url, '/v1/rerank', { model: 'rerank-v3.5', query: 'q', documents: ['a'] }, configHeaders(config));
      expect(reply.status).to.equal(502);
      expect(reply.json.provider).to.equal('cohere');
    });

    it('an endpoint Cohere does not serve is a 400', async () => {
      const reply = await postJson(gw.url, '/v1/completions', { model: 'command-a', prompt: 'x' }, configHeaders(config));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.code).to.equal('unsupported_endpoint');
    });

    it('a target without api_key or custom_host is refused when the config is validated', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { model: 'command-a', messages: [{ role: 'user', content: 'x' }] },
        configHeaders({ strategy: { mode: 'single' }, targets: [{ provider: 'cohere' }] }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('config.targets.0.api_key: is required for provider "cohere" (or set custom_host)');
    });
  });
});
