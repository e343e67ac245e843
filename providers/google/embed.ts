/**
 * Unified embeddings ↔ the Gemini API's `embedContent` (one string) and `batchEmbedContents` (an
 * array of strings, one request each, in order).
 * Request: `input` → `content.parts[0].text`; `dimensions` → `outputDimensionality`; `task_type`
 * (RETRIEVAL_QUERY, SEMANTIC_SIMILARITY ...) → `taskType`. Token-id inputs are refused.
 * Answer: `embedding.values` / `embeddings[].values` → `data[]`, as base64 float32 when the client
 * asked for `encoding_format: base64` (the openai SDK's default). Gemini reports no token count for
 * embeddings unless it sends `usageMetadata`; usage is 0 otherwise.
 */
import { Errors } from '../../core/index.js';
import { PROVIDER_ID } from './target.js';

type Json = Record<string, unknown>;

export type EmbedMethod = 'embedContent' | 'batchEmbedContents';

export function embedMethodOf(body: Json): EmbedMethod {
  return typeof body['input'] === 'string' ? 'embedContent' : 'batchEmbedContents';
}

function options(body: Json): Json {
  const out: Json = {};
  const dimensions = body['dimensions'];
  if (dimensions !== undefined) {
    if (!Number.isInteger(dimensions) || (dimensions as number) < 1) throw Errors.invalidBody('dimensions', 'must be a positive integer');
    out['outputDimensionality'] = dimensions;
  }
  const taskType = body['task_type'];
  if (taskType !== undefined) {
    if (typeof taskType !== 'string' || !/^[A-Z_]+$/.test(taskType)) throw Errors.invalidBody('task_type', 'must be a Gemini task type such as "RETRIEVAL_QUERY"');
    out['taskType'] = taskType;
  }
  return out;
}

const content = (text: string) => ({ parts: [{ text }] });

export function toGeminiEmbed(body: Json, model: string): Json {
  const input = body['input'];
  if (typeof input === 'string') return { content: content(input), ...options(body) };
  if (!Array.isArray(input) || input.length === 0 || !input.every((x) => typeof x === 'string')) {
    throw Errors.invalidBody('input', `must be a string or a non-empty array of strings for provider ${PROVIDER_ID} (token ids are not supported)`);
  }
  const shared = options(body);
  // Each request names its model: Google refuses a batch whose items name another than the URL's.
  return { requests: (input as string[]).map((text) => ({ model: `models/${model}`, content: content(text), ...shared })) };
}

interface GeminiEmbedAnswer {
  embedding?: { values?: number[] };
  embeddings?: { values?: number[] }[];
  usageMetadata?: { promptTokenCount?: number };
}

export function fromGeminiEmbed(value: GeminiEmbedAnswer, body: Json): Json {
  const vectors = value.embedding ? [value.embedding] : value.embeddings;
  if (!Array.isArray(vectors) || !vectors.every((v) => Array.isArray(v?.values))) throw new Error('no embedding values');
  const base64 = body['encoding_format'] === 'base64';
  const data = vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? toBase64(v.values!) : v.values! }));
  const tokens = value.usageMetadata?.promptTokenCount ?? 0;
  return { object: 'list', data, model: body['model'], provider: PROVIDER_ID, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** Little-endian float32 bytes, as OpenAI's `base64` encoding_format. */
function toBase64(vector: number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}
