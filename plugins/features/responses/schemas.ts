/**
 * The body of POST /v1/responses and the `include` values of GET /v1/responses/{id}
 * (spec §2.2 Stored response, §4.12, §8), compiled once. Unknown fields pass on to providers with
 * a native Responses API; the chat translation uses the fields it knows (to-chat.ts).
 */
import { MAX_COUNT, compile, Errors, joinPath, Nullable, StringEnum, Type, type Issue, type Static } from '../../../core/index.js';

const Opt = Type.Optional;
const NonEmpty = Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' });

export const RESPONSE_STATUSES = ['completed', 'failed', 'in_progress', 'incomplete'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/** §4.12. */
export const INCLUDE_VALUES = ['file_search_call.results', 'message.input_image.image_url', 'computer_call_output.output.image_url'] as const;

export const MAX_METADATA_PAIRS = 16;
export const MAX_METADATA_KEY = 64;
export const MAX_METADATA_VALUE = 512;

const InputItem = Type.Object({}, { errorMessage: 'must be an input item object' });

const CreateResponse = Type.Object({
  model: NonEmpty,
  input: Type.Union([Type.String(), Type.Array(InputItem, { minItems: 1 })], {
    errorMessage: 'must be a string or a non-empty array of input items',
  }),
  instructions: Opt(Nullable(Type.String())),
  temperature: Opt(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Opt(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  max_output_tokens: Opt(Nullable(Type.Integer({ minimum: 1, maximum: MAX_COUNT }))),
  metadata: Opt(Nullable(Type.Object({}))),
  store: Opt(Nullable(Type.Boolean())),
  stream: Opt(Nullable(Type.Boolean())),
  truncation: Opt(Nullable(StringEnum(['auto', 'disabled']))),
  previous_response_id: Opt(Nullable(NonEmpty)),
  tools: Opt(Type.Array(Type.Object({ type: NonEmpty }), { maxItems: 128 })),
  tool_choice: Opt(Type.Union([StringEnum(['none', 'auto', 'required']), Type.Object({ type: NonEmpty })], {
    errorMessage: 'must be "none", "auto", "required" or an object with a type',
  })),
  parallel_tool_calls: Opt(Nullable(Type.Boolean())),
  text: Opt(Type.Object({ format: Opt(Type.Object({ type: StringEnum(['text', 'json_object', 'json_schema']) })) })),
  reasoning: Opt(Nullable(Type.Object({ effort: Opt(Nullable(Type.String())) }))),
  user: Opt(Type.String()),
  include: Opt(Nullable(Type.Array(Type.String()))),
});

export type CreateResponseBody = Static<typeof CreateResponse> & Record<string, unknown>;

const createResponse = compile(CreateResponse);

/** The first problem of a create body, or undefined. */
export function createIssue(body: Record<string, unknown>): Issue | undefined {
  if (!createResponse.check(body)) return createResponse.issues(body, 1)[0];
  const tools = (body as CreateResponseBody).tools ?? [];
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i] as Record<string, unknown>;
    if (tool['type'] === 'function' && (typeof tool['name'] !== 'string' || tool['name'] === '')) {
      return { path: `tools.${i}.name`, rule: 'is required for a function tool' };
    }
  }
  return metadataIssue((body as CreateResponseBody).metadata ?? undefined, 'metadata');
}

/** §8: at most 16 pairs, keys up to 64 characters, string values up to 512. */
export function metadataIssue(metadata: Record<string, unknown> | undefined, path: string): Issue | undefined {
  if (!metadata) return undefined;
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_PAIRS) return { path, rule: `must have at most ${MAX_METADATA_PAIRS} key-value pairs` };
  for (const key of keys) {
    const value = metadata[key];
    if (key.length > MAX_METADATA_KEY) return { path: joinPath(path, key), rule: `key must be at most ${MAX_METADATA_KEY} characters` };
    if (typeof value !== 'string') return { path: joinPath(path, key), rule: 'must be a string' };
    if (value.length > MAX_METADATA_VALUE) return { path: joinPath(path, key), rule: `must be at most ${MAX_METADATA_VALUE} characters` };
  }
  return undefined;
}

/** `include`, `include[]` (the SDKs' form) or a comma list; unknown values are a 400. */
export function readInclude(query: URLSearchParams): Set<string> {
  const values = [...query.getAll('include'), ...query.getAll('include[]')].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  for (const value of values) {
    if (!(INCLUDE_VALUES as readonly string[]).includes(value)) {
      throw Errors.invalidRequest(`query.include: "${value}" is not one of ${INCLUDE_VALUES.join(', ')}`, 'include', 'invalid_query');
    }
  }
  return new Set(values);
}
