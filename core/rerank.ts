/**
 * The unified rerank shape (spec §4.4) and the pieces every rerank adapter shares: the text of
 * each document as sent to a provider, and the provider's scores turned into the answer's results.
 */
type Json = Record<string, unknown>;
export type RerankDocument = string | ({ text?: unknown } & Json);

export interface RerankResult {
  index: number;
  relevance_score: number;
  document?: { text: string };
}

export interface RerankAnswer {
  object: 'list';
  results: RerankResult[];
  model: unknown;
  id: string;
  usage: { search_units: number; [extra: string]: number };
  provider: string;
}

/** A document's text: the string; for an object, its `rank_fields` as "field: value" lines, else its `text`. */
export function rerankDocumentText(doc: RerankDocument, rankFields?: readonly string[]): string {
  if (typeof doc === 'string') return doc;
  if (rankFields?.length) {
    const lines: string[] = [];
    for (const field of rankFields) {
      const value = doc[field];
      if (value !== undefined) lines.push(`${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    }
    return lines.join('\n');
  }
  return typeof doc.text === 'string' ? doc.text : JSON.stringify(doc);
}

/** The text of every document of a unified rerank body, in order. */
export function rerankDocumentTexts(body: Json): string[] {
  const docs = body['documents'] as RerankDocument[];
  const fields = body['rank_fields'] as string[] | undefined;
  return docs.map((doc) => rerankDocumentText(doc, fields));
}

/**
 * A provider's scores as results: each checked to name a document, sorted by score (ties by index),
 * cut to `top_n`, with `document.text` (the request's string, or the object's `text`) unless
 * `return_documents` is false. Throws when a result names no document (the provider broke protocol).
 */
export function rankedResults(raw: readonly { index?: unknown; relevance_score?: unknown }[], body: Json): RerankResult[] {
  const docs = body['documents'] as RerankDocument[];
  const results: RerankResult[] = raw.map((r) => {
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
    for (const r of results) r.document = { text: rerankDocumentText(docs[r.index]!) };
  }
  return results;
}
