/** `POST /v1/batches` body (spec §4.5, §8 metadata limits) and the list query. */
import { compile, Errors, queryInt, StringEnum, Type, validated, type Issue } from '../../../core/index.js';

export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/completions', '/v1/embeddings'] as const;
export const COMPLETION_WINDOWS = ['24h', 'immediate'] as const;

const MAX_METADATA_PAIRS = 16;
const MAX_METADATA_KEY = 64;
const MAX_METADATA_VALUE = 512;
export const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

// Unknown keys are ignored (newer SDKs send fields such as output_expires_after).
const CreateBatch = compile(Type.Object({
  input_file_id: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
  endpoint: StringEnum([...BATCH_ENDPOINTS]),
  completion_window: StringEnum([...COMPLETION_WINDOWS]),
  metadata: Type.Optional(Type.Unknown()),
}));

export interface CreateBatchBody {
  input_file_id: string;
  endpoint: (typeof BATCH_ENDPOINTS)[number];
  completion_window: (typeof COMPLETION_WINDOWS)[number];
  metadata: Record<string, string> | null;
}

export function parseCreateBody(body: unknown): CreateBatchBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidBody('', 'must be a JSON object');
  const valid = validated(CreateBatch, body);
  const metadata = valid.metadata;
  const issue = metadataIssue(metadata);
  if (issue) throw Errors.invalidBody(issue.path, issue.rule);
  return {
    input_file_id: valid.input_file_id,
    endpoint: valid.endpoint,
    completion_window: valid.completion_window,
    metadata: (metadata ?? null) as Record<string, string> | null,
  };
}

/** Spec §8: at most 16 pairs, keys up to 64 characters, string values up to 512 characters. */
export function metadataIssue(value: unknown): Issue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return { path: 'metadata', rule: 'must be an object of string values or null' };
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA_PAIRS) return { path: 'metadata', rule: `must have at most ${MAX_METADATA_PAIRS} key-value pairs` };
  for (const [key, v] of entries) {
    if (key.length > MAX_METADATA_KEY) {
      return { path: 'metadata', rule: `key "${key.slice(0, 20)}..." must be at most ${MAX_METADATA_KEY} characters` };
    }
    if (typeof v !== 'string') return { path: `metadata.${key}`, rule: 'must be a string' };
    if (v.length > MAX_METADATA_VALUE) return { path: `metadata.${key}`, rule: `must be at most ${MAX_METADATA_VALUE} characters` };
  }
  return undefined;
}

export function parseListQuery(query: URLSearchParams): { after?: string; limit: number } {
  const limit = queryInt(query, 'limit', { fallback: DEFAULT_LIST_LIMIT, min: 1, max: MAX_LIST_LIMIT });
  const after = query.get('after');
  return { after: after === null || after === '' ? undefined : after, limit };
}
