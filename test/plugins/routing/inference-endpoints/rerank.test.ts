/** POST /v1/rerank: body validation edges (spec §4.4, §8) and the route through the gateway. */
import { expect } from 'chai';
import * as rerank from '../../../../plugins/routing/inference-endpoints/bodies/rerank.js';
import CohereProviderPlugin from '../../../../providers/cohere/index.js';
import { startCohereMock, type MockCohere } from '../../../fixtures/mock-cohere.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { configHeaders, postJson, startGateway, type TestGateway } from '../../../helpers/gateway.js';

const BASE = Object.freeze({ model: 'rerank-v3.5', query: 'capital of France', documents: ['Paris', 'Berlin'] });

describe('rerank body', () => {
  it('accepts the minimal body and every documented field', () => {
    expect(rerank.validate(BASE)).to.deep.equal([]);
    expect(rerank.validate({
      ...BASE,
      documents: ['plain', { text: 'with metadata', title: 'T', tags: ['a'] }],
      top_n: 1, return_documents: false, max_tokens_per_doc: 4096, rank_fields: ['title', 'text'], truncate: true, priority: 0,
      provider_params: { anything: { nested: 1 } },
    })).to.deep.equal([]);
  });

  const invalid: Array<[string, Record<string, unknown> | unknown, string, string]> = [
    ['not an object', [], '', 'must be an object'],
    ['no model', { query: 'q', documents: ['a'] }, 'model', 'is required'],
    ['an empty model', { ...BASE, model: '' }, 'model', 'must be at least 1 character(s)'],
    ['no query', { model: 'm', documents: ['a'] }, 'query', 'is required'],
    ['an empty query', { ...BASE, query: '' }, 'query', 'must be at least 1 character(s)'],
    ['a query that is not a string', { ...BASE, query: 3 }, 'query', 'must be a string'],
    ['no documents', { model: 'm', query: 'q' }, 'documents', 'is required'],
    ['no document at all', { ...BASE, documents: [] }, 'documents', 'must have at least 1 item(s)'],
    ['documents that are not an array', { ...BASE, documents: 'Paris' }, 'documents', 'must be an array'],
    ['a document that is a number', { ...BASE, documents: ['a', 3] }, 'documents.1', 'must be a string or an object with a string "text"'],
    ['a document object without text', { ...BASE, documents: [{ title: 'x' }] }, 'documents.0.text', 'is required'],
    ['a document text that is not a string', { ...BASE, documents: [{ text: 1 }] }, 'documents.0.text', 'must be a string'],
    ['top_n 0', { ...BASE, top_n: 0 }, 'top_n', 'must be >= 1'],
    ['a fractional top_n', { ...BASE, top_n: 1.5 }, 'top_n', 'must be an integer'],
    ['return_documents that is not a boolean', { ...BASE, return_documents: 'yes' }, 'return_documents', 'must be a boolean'],
    ['max_tokens_per_doc 0', { ...BASE, max_tokens_per_doc: 0 }, 'max_tokens_per_doc', 'must be >= 1'],
    ['a rank field that is not a string', { ...BASE, rank_fields: ['a', 1] }, 'rank_fields.1', 'must be a string'],
    ['an empty rank field', { ...BASE, rank_fields: [''] }, 'rank_fields.0', 'must be at least 1 character(s)'],
    ['truncate that is not a boolean', { ...BASE, truncate: 'x' }, 'truncate', 'must be a boolean'],
    ['a fractional priority', { ...BASE, priority: 1.5 }, 'priority', 'must be an integer'],
    ['provider_params that is an array', { ...BASE, provider_params: [] }, 'provider_params', 'must be an object'],
  ];
  for (const [what, body, path, rule] of invalid) {
    it(`rejects ${what} (${path || '(body)'}: ${rule})`, () => expect(rerank.validate(body)[0]).to.deep.equal({ path, rule }));
  }
});

describe('POST /v1/rerank', () => {
  let cohere: MockCohere;
  let openai: MockOpenAI;
  let gw: TestGateway;
  let headers: Record<string, string>;

  before(async () => {
    cohere = await startCohereMock();
    openai = await startMockOpenAI();
    gw = await startGateway({ plugins: [CohereProviderPlugin] });
    headers = configHeaders({ provider: 'cohere', api_key: 'k', custom_host: `${cohere.url}/v2` });
  });
  after(async () => {
    await gw?.stop();
    await cohere?.close();
    await openai?.close();
  });
  beforeEach(() => cohere.reset());

  it('answers the unified rerank list', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', BASE, headers);
    expect(reply.status).to.equal(200);
    expect(reply.headers.get('content-type')).to.match(/^application\/json/);
    expect(Object.keys(reply.json).sort()).to.deep.equal(['id', 'model', 'object', 'provider', 'results', 'usage']);
    expect(reply.json.results[0]).to.deep.equal({ index: 0, relevance_score: reply.json.results[0].relevance_score, document: { text: 'Paris' } });
  });

  it('sorts results by relevance_score, highest first, whatever order the provider used', async () => {
    cohere.next({ status: 200, body: { id: 'x', results: [{ index: 1, relevance_score: 0.1 }, { index: 2, relevance_score: 0.9 }, { index: 0, relevance_score: 0.5 }], meta: { billed_units: { search_units: 1 } } } });
    const reply = await postJson(gw.url, '/v1/rerank', { ...BASE, documents: ['a', 'b', 'c'] }, headers);
    expect(reply.status).to.equal(200);
    expect(reply.json.results.map((r: { index: number; relevance_score: number }) => [r.index, r.relevance_score])).to.deep.equal([[2, 0.9], [0, 0.5], [1, 0.1]]);
  });

  it('refuses an invalid body with 400 naming the field, before any provider call', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', { ...BASE, documents: [] }, headers);
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.equal('body.documents: must have at least 1 item(s)');
    expect(reply.json.error.param).to.equal('documents');
    expect(cohere.requests).to.have.length(0);
  });

  it('refuses stream: true', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', { ...BASE, stream: true }, headers);
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.equal('body.stream: is not supported on /v1/rerank');
  });

  it('answers 400 for a provider without rerank', async () => {
    const reply = await postJson(gw.url, '/v1/rerank', BASE, configHeaders({ provider: 'openai', api_key: 'k', custom_host: `${openai.url}/v1` }));
    expect(reply.status).to.equal(400);
    expect(reply.json.error.code).to.equal('unsupported_endpoint');
    expect(openai.requests).to.have.length(0);
  });
});
