/**
 * Unified rerank (spec §4.4) ↔ Cohere `POST /v2/rerank`.
 * Request: documents become texts (strings as they are; objects by `rank_fields` as YAML-like
 * "field: value" lines, which Cohere recommends for structured data, else their `text`);
 * `top_n` and `max_tokens_per_doc` as they are; `provider_params` merged on top.
 * Response: results sorted by relevance, each with `document.text` (the request's string, or the
 * object's `text`) unless `return_documents` is false (Cohere v2 returns no documents); usage
 * `search_units` from `meta.billed_units`.
 */
import { rankedResults, rerankDocumentTexts } from '../../core/index.js';

type Json = Record<string, unknown>;

export function toCohereRerank(body: Json): Json {
  const out: Json = { model: body['model'], query: body['query'], documents: rerankDocumentTexts(body) };
  if (body['top_n'] !== undefined) out['top_n'] = body['top_n'];
  if (body['max_tokens_per_doc'] !== undefined) out['max_tokens_per_doc'] = body['max_tokens_per_doc'];
  const extra = body['provider_params'] as Json | undefined;
  return extra ? { ...out, ...extra } : out;
}

interface CohereRerankResponse {
  id?: string;
  results?: { index?: unknown; relevance_score?: unknown }[];
  meta?: { billed_units?: { search_units?: number } };
}

export function fromCohereRerank(value: CohereRerankResponse, body: Json, provider: string, fallbackId: () => string): Json {
  if (!Array.isArray(value.results)) throw new Error('no results');
  return {
    object: 'list',
    results: rankedResults(value.results, body),
    model: body['model'],
    id: value.id ?? fallbackId(),
    usage: { search_units: value.meta?.billed_units?.search_units ?? 0 },
    provider,
  };
}
