/**
 * Unified embeddings ↔ Cohere `POST /v2/embed`.
 * Request: `input` (a string or strings) → `texts`; `input_type` defaults to `search_document`
 * (Cohere requires one for v3+ models; send `input_type` in the body for queries);
 * `embedding_types: ["float"]`; `dimensions` → `output_dimension`; `truncate` passes on.
 * Response: `embeddings.float` → `data[]`, base64 when the client asked for `encoding_format: base64`
 * (the openai SDK's default), usage from `meta.billed_units.input_tokens`.
 */
import { Errors } from '../../core/index.js';

type Json = Record<string, unknown>;

export const DEFAULT_INPUT_TYPE = 'search_document';

export function toCohereEmbed(body: Json): Json {
  const out: Json = {
    model: body['model'],
    texts: texts(body['input']),
    input_type: typeof body['input_type'] === 'string' ? body['input_type'] : DEFAULT_INPUT_TYPE,
    embedding_types: ['float'],
  };
  if (typeof body['dimensions'] === 'number') out['output_dimension'] = body['dimensions'];
  if (typeof body['truncate'] === 'string') out['truncate'] = body['truncate'];
  return out;
}

function texts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.every((x) => typeof x === 'string')) return input as string[];
  throw Errors.invalidBody('input', 'must be a string or an array of strings for provider cohere (token ids are not supported)');
}

interface CohereEmbedResponse {
  id?: string;
  embeddings?: { float?: number[][] } | number[][];
  meta?: { billed_units?: { input_tokens?: number } };
}

export function fromCohereEmbed(value: CohereEmbedResponse, body: Json): Json {
  // v2 answers by type; the older single-type shape is a bare array.
  const vectors = Array.isArray(value.embeddings) ? value.embeddings : value.embeddings?.float;
  if (!Array.isArray(vectors)) throw new Error('no embeddings.float');
  const base64 = body['encoding_format'] === 'base64';
  const data = vectors.map((v, index) => ({ object: 'embedding', index, embedding: base64 ? toBase64(v) : v }));
  const tokens = value.meta?.billed_units?.input_tokens ?? 0;
  return { object: 'list', data, model: body['model'], usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** Little-endian float32 bytes, as OpenAI's `base64` encoding_format. */
function toBase64(vector: number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}
