/**
 * Unified rerank (spec §4.4) ↔ Cohere `POST /v2/rerank`.
 * Request: documents become texts (strings as they are; objects by `rank_fields` as YAML-like
 * "field: value" lines, which Cohere recommends for structured data, else their `text`);
 * `top_n` and `max_tokens_per_doc` as they are; `provider_params` merged on top.
 * Response: results sorted by relevance, each with `document.text` (the request's string, or the
 * object's `text`) unless `return_documents` is false (Cohere v2 returns no documents); usage
 * `search_units` from `meta.billed_units`.
 */
type Json = Record<string, unknown>;
type Doc = string | ({ text: string } & Json);

export function documentTexts(body: Json): string[] {
  const docs = body['documents'] as Doc[];
  const fields = body['rank_fields'] as string[] | undefined;
  const out = new Array<string>(docs.length);
  for (let i = 0; i < docs.length; i++) out[i] = documentText(docs[i]!, fields);
  return out;
}

function documentText(doc: Doc, fields: string[] | undefined): string {
  if (typeof doc === 'string') return doc;
  if (!fields?.length) return doc.text;
  const lines: string[] = [];
  for (const field of fields) {
    const value = doc[field];
    if (value !== undefined) lines.push(`${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines.join('\n');
}

export function toCohereRerank(body: Json): Json {
  const out: Json = { model: body['model'], query: body['query'], documents: documentTexts(body) };
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

export interface RerankResult {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

export function fromCohereRerank(value: CohereRerankResponse, body: Json, provider: string, fallbackId: () => string): Json {
  if (!Array.isArray(value.results)) throw new Error('no results');
  const results = rankedResults(value.results, body);
  return {
    object: 'list',
    results,
    model: body['model'],
    id: value.id ?? fallbackId(),
    usage: { search_units: value.meta?.billed_units?.search_units ?? 0 },
    provider,
  };
}

/** Checked, sorted by score (ties by index), cut to top_n, with document text unless return_documents is false. */
export function rankedResults(raw: { index?: unknown; relevance_score?: unknown }[], body: Json): RerankResult[] {
  const count = (body['documents'] as unknown[]).length;
  const results: RerankResult[] = raw.map((r) => {
    const { index, relevance_score: score } = r;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || typeof score !== 'number') {
      throw new Error(`result ${JSON.stringify(r)} names no document`);
    }
    return { index, relevance_score: score };
  });
  results.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = body['top_n'];
  if (typeof topN === 'number' && results.length > topN) results.length = topN;
  if (body['return_documents'] !== false) {
    const docs = body['documents'] as Doc[];
    for (const r of results) {
      const doc = docs[r.index]!;
      r.document = { text: typeof doc === 'string' ? doc : doc.text };
    }
  }
  return results;
}
