/**
 * Unified rerank (spec §4.4) ↔ Bedrock Rerank (`POST /rerank` on bedrock-agent-runtime):
 *   query → queries [{type: TEXT}];  documents → sources (strings as TEXT; objects as TEXT of their
 *   `text`, or as JSON limited to `rank_fields` when given);  model → modelArn (a bare model id becomes
 *   the foundation-model ARN of the target's region);  top_n → numberOfResults (default: all);
 *   max_tokens_per_doc and provider_params → the model's additionalModelRequestFields (the Rerank body
 *   itself has a fixed shape: model-specific fields go there).
 * The answer's documents are taken from the request by index, so they are exact whatever Bedrock echoes.
 */
import { randomUUID } from 'node:crypto';
import { rankedResults, type RerankAnswer } from '../../core/index.js';
import type { RerankRequest, RerankResponse, RerankSource } from './wire.js';
import { PROVIDER_ID } from './target.js';

/** Bedrock prices rerank per query of up to 100 documents: one search unit each. */
const DOCUMENTS_PER_SEARCH_UNIT = 100;

type Document = string | Record<string, unknown>;

/** AWS partition of a region, for ARNs. */
function partition(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}

export function modelArn(model: string, region: string): string {
  return model.startsWith('arn:') ? model : `arn:${partition(region)}:bedrock:${region}::foundation-model/${model}`;
}

export function toBedrockRerank(body: Record<string, unknown>, region: string): RerankRequest {
  const documents = body['documents'] as Document[];
  const rankFields = Array.isArray(body['rank_fields']) && body['rank_fields'].length > 0 ? (body['rank_fields'] as string[]) : undefined;
  const topN = typeof body['top_n'] === 'number' ? Math.min(body['top_n'], documents.length) : documents.length;
  const extra = additionalFields(body);
  return {
    queries: [{ type: 'TEXT', textQuery: { text: String(body['query']) } }],
    sources: documents.map((doc) => source(doc, rankFields)),
    rerankingConfiguration: {
      type: 'BEDROCK_RERANKING_MODEL',
      bedrockRerankingConfiguration: {
        numberOfResults: topN,
        modelConfiguration: {
          modelArn: modelArn(String(body['model']), region),
          ...(extra ? { additionalModelRequestFields: extra } : {}),
        },
      },
    },
  };
}

function additionalFields(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const params = body['provider_params'];
  const maxTokensPerDoc = body['max_tokens_per_doc'];
  if (typeof maxTokensPerDoc !== 'number' && (params === undefined || params === null)) return undefined;
  return {
    ...(typeof maxTokensPerDoc === 'number' ? { max_tokens_per_doc: maxTokensPerDoc } : {}),
    ...(params as Record<string, unknown> | undefined),
  };
}

function source(doc: Document, rankFields: string[] | undefined): RerankSource {
  if (typeof doc === 'string') return textSource(doc);
  if (rankFields) {
    const picked: Record<string, unknown> = {};
    for (const field of rankFields) if (doc[field] !== undefined) picked[field] = doc[field];
    return { type: 'INLINE', inlineDocumentSource: { type: 'JSON', jsonDocument: picked } };
  }
  if (typeof doc['text'] === 'string') return textSource(doc['text']);
  return { type: 'INLINE', inlineDocumentSource: { type: 'JSON', jsonDocument: doc } };
}

function textSource(text: string): RerankSource {
  return { type: 'INLINE', inlineDocumentSource: { type: 'TEXT', textDocument: { text } } };
}

export function fromBedrockRerank(answer: RerankResponse, request: Record<string, unknown>): RerankAnswer {
  if (!answer || typeof answer !== 'object' || !Array.isArray(answer.results)) throw new Error('no results in the Rerank answer');
  const documents = request['documents'] as Document[];
  const scores = answer.results.map((r) => ({ index: r.index, relevance_score: r.relevanceScore }));
  return {
    object: 'list',
    results: rankedResults(scores, request),
    model: String(request['model']),
    id: `rerank-${randomUUID()}`,
    usage: { search_units: Math.max(1, Math.ceil(documents.length / DOCUMENTS_PER_SEARCH_UNIT)) },
    provider: PROVIDER_ID,
  };
}
