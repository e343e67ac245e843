/**
 * Unified rerank (spec §4.4) ↔ Voyage AI `POST /v1/rerank`, the provider whose API names the cut
 * `top_k`: top_n → top_k, truncate → truncation; documents become texts (objects by `rank_fields`
 * as "field: value" lines, else their `text`); `provider_params` merged on top.
 * Response `data[{index, relevance_score}]` → `results`, sorted, with `document.text` from the
 * request unless `return_documents` is false. Voyage bills tokens, not search units: usage reports
 * `search_units: 1` (one query) and Voyage's `total_tokens`. Voyage answers no id: one is made.
 */
type Json = Record<string, unknown>;
type Doc = string | ({ text: string } & Json);

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

export function toVoyageRerank(body: Json): Json {
  const docs = body['documents'] as Doc[];
  const fields = body['rank_fields'] as string[] | undefined;
  const out: Json = { query: body['query'], documents: docs.map((d) => documentText(d, fields)), model: body['model'] };
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

interface RerankResult {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

export function fromVoyageRerank(value: VoyageRerankResponse, body: Json, provider: string, id: string): Json {
  if (!Array.isArray(value.data)) throw new Error('no data');
  const docs = body['documents'] as Doc[];
  const results: RerankResult[] = value.data.map((r) => {
    const { index, relevance_score: score } = r;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= docs.length || typeof score !== 'number') {
      throw new Error(`result ${JSON.stringify(r)} names no document`);
    }
    return { index, relevance_score: score };
  });
  results.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = body['top_n'];
  if (typeof topN === 'number' && results.length > topN) results.length = topN;
  if (body['return_documents'] !== false) {
    for (const r of results) {
      const doc = docs[r.index]!;
      r.document = { text: typeof doc === 'string' ? doc : doc.text };
    }
  }
  return {
    object: 'list',
    results,
    model: value.model ?? body['model'],
    id,
    usage: { search_units: 1, total_tokens: value.usage?.total_tokens ?? 0 },
    provider,
  };
}
