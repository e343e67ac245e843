/**
 * Unified rerank (spec §4.4) ↔ Voyage AI `POST /v1/rerank`, the provider whose API names the cut
 * `top_k`: top_n → top_k, truncate → truncation; documents become texts (objects by `rank_fields`
 * as "field: value" lines, else their `text`); `provider_params` merged on top.
 * Response `data[{index, relevance_score}]` → `results`, sorted, with `document.text` from the
 * request unless `return_documents` is false. Voyage bills tokens, not search units: usage reports
 * `search_units: 1` (one query) and Voyage's `total_tokens`. Voyage answers no id: one is made.
 */
import { rankedResults, rerankDocumentTexts } from '../../core/index.js';

type Json = Record<string, unknown>;

export function toVoyageRerank(body: Json): Json {
  const out: Json = { query: body['query'], documents: rerankDocumentTexts(body), model: body['model'] };
  if (body['top_n'] !== undefined) out['top_k'] = body['top_n'];
  if (body['truncate'] !== undefined) out['truncation'] = body['truncate'];
  const extra = body['provider_params'] as Json | undefined;
  return extra ? { ...out, ...extra } : out;
}

interface VoyageRerankResponse {
  object?: string;
  data?: { index?: unknown; relevance_score?: unknown }[];
  model?: string;
  usage?: { total_tokens?: number };
}

export function fromVoyageRerank(value: VoyageRerankResponse, body: Json, provider: string, id: string): Json {
  if (!Array.isArray(value.data)) throw new Error('no data');
  return {
    object: 'list',
    results: rankedResults(value.data, body),
    model: value.model ?? body['model'],
    id,
    usage: { search_units: 1, total_tokens: value.usage?.total_tokens ?? 0 },
    provider,
  };
}
