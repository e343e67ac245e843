/** Unified rerank ↔ Bedrock Rerank (agent runtime), as units. */
import { expect } from 'chai';
import { fromBedrockRerank, modelArn, toBedrockRerank } from '../../../providers/bedrock/rerank.js';

const ARN = 'arn:aws:bedrock:us-west-2::foundation-model/amazon.rerank-v1:0';

describe('bedrock rerank transforms', () => {
  it('builds the Rerank body: one TEXT query, INLINE TEXT sources, the model ARN, numberOfResults', () => {
    const req = toBedrockRerank({ model: ARN, query: 'capital of France', documents: ['Paris is in France', { text: 'Rome', id: 7 }], top_n: 1 }, 'us-west-2');
    expect(req).to.deep.equal({
      queries: [{ type: 'TEXT', textQuery: { text: 'capital of France' } }],
      sources: [
        { type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'Paris is in France' } } },
        { type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text: 'Rome' } } },
      ],
      rerankingConfiguration: {
        type: 'BEDROCK_RERANKING_MODEL',
        bedrockRerankingConfiguration: { numberOfResults: 1, modelConfiguration: { modelArn: ARN } },
      },
    });
  });

  it('returns every document when top_n is absent (or larger than the list)', () => {
    const docs = ['a', 'b', 'c'];
    expect(toBedrockRerank({ model: ARN, query: 'q', documents: docs }, 'us-west-2').rerankingConfiguration.bedrockRerankingConfiguration.numberOfResults).to.equal(3);
    expect(toBedrockRerank({ model: ARN, query: 'q', documents: docs, top_n: 50 }, 'us-west-2').rerankingConfiguration.bedrockRerankingConfiguration.numberOfResults).to.equal(3);
  });

  it('makes a foundation-model ARN from a bare model id, in the region and partition of the target', () => {
    expect(modelArn('cohere.rerank-v3-5:0', 'eu-central-1')).to.equal('arn:aws:bedrock:eu-central-1::foundation-model/cohere.rerank-v3-5:0');
    expect(modelArn('amazon.rerank-v1:0', 'cn-north-1')).to.equal('arn:aws-cn:bedrock:cn-north-1::foundation-model/amazon.rerank-v1:0');
    expect(modelArn('amazon.rerank-v1:0', 'us-gov-west-1')).to.equal('arn:aws-us-gov:bedrock:us-gov-west-1::foundation-model/amazon.rerank-v1:0');
    expect(modelArn(ARN, 'eu-central-1')).to.equal(ARN);
  });

  it('sends rank_fields as JSON documents and max_tokens_per_doc / provider_params as model fields', () => {
    const req = toBedrockRerank({
      model: ARN, query: 'q', documents: [{ text: 'body', title: 'T', secret: 'x' }], rank_fields: ['title', 'text'],
      max_tokens_per_doc: 256, provider_params: { version: 2 },
    }, 'us-west-2');
    expect(req.sources[0]).to.deep.equal({ type: 'INLINE', inlineDocumentSource: { type: 'JSON', jsonDocument: { title: 'T', text: 'body' } } });
    expect(req.rerankingConfiguration.bedrockRerankingConfiguration.modelConfiguration.additionalModelRequestFields).to.deep.equal({ max_tokens_per_doc: 256, version: 2 });
  });

  it('answers the unified list: sorted by relevance, documents from the request, model, id, search units, provider', () => {
    const request = { model: ARN, query: 'q', documents: ['zero', { text: 'one' }, 'two'] };
    const out = fromBedrockRerank({ results: [
      { index: 2, relevanceScore: 0.2, document: { type: 'TEXT', textDocument: { text: 'two' } } },
      { index: 1, relevanceScore: 0.9 },
      { index: 0, relevanceScore: 0.5 },
    ] }, request);
    expect(out.object).to.equal('list');
    expect(out.results).to.deep.equal([
      { index: 1, relevance_score: 0.9, document: { text: 'one' } },
      { index: 0, relevance_score: 0.5, document: { text: 'zero' } },
      { index: 2, relevance_score: 0.2, document: { text: 'two' } },
    ]);
    expect(out.model).to.equal(ARN);
    expect(out.id).to.match(/^rerank-/);
    expect(out.usage).to.deep.equal({ search_units: 1 });
    expect(out.provider).to.equal('bedrock');
  });

  it('leaves documents out when return_documents is false, and counts a search unit per 100 documents', () => {
    const documents = Array.from({ length: 201 }, (_, i) => `doc ${i}`);
    const out = fromBedrockRerank({ results: [{ index: 3, relevanceScore: 0.4 }] }, { model: ARN, query: 'q', documents, return_documents: false });
    expect(out.results).to.deep.equal([{ index: 3, relevance_score: 0.4 }]);
    expect(out.usage.search_units).to.equal(3);
    expect(() => fromBedrockRerank({} as never, { model: ARN, query: 'q', documents })).to.throw(/no results/);
  });
});
