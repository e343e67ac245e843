/**
 * Bodies of the prompt routes, compiled once:
 *   PUT    /v1/prompts/:id           { model, messages | prompt, ...hyperparameters, patch? }
 *   POST   /v1/prompts               { id?, model, messages | prompt, ...hyperparameters }
 *   POST   /v1/prompts/:id/render    { variables, version?, ...hyperparameters }  (spec §4.13)
 * Hyperparameters are checked with the ranges of spec §8 so that a rendered body is one the
 * inference endpoints accept; unknown fields pass on (providers add parameters over time).
 */
import { compile, MAX_COUNT, Nullable, StringEnum, Type, type Issue } from '../../../core/index.js';

const Opt = Type.Optional;

/** Prompt ids: letters, digits, `_`, `-`, `.`; up to 128. `@` separates a pinned version in configs. */
export const PROMPT_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Root keys a template may not hold: they belong to the routes, not to a chat body. */
export const RESERVED_KEYS = ['variables', 'version', 'patch', 'id', 'prompt_id'] as const;

const Hyperparameters = {
  frequency_penalty: Opt(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  presence_penalty: Opt(Nullable(Type.Number({ minimum: -2, maximum: 2 }))),
  logit_bias: Opt(Nullable(Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Number({ minimum: -100, maximum: 100 }), {
    additionalProperties: Type.Never({ errorMessage: 'is not a token id' }),
  }))),
  // A boolean for chat, an integer 0 to 5 for text completions.
  logprobs: Opt(Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 5 }), Type.Null()], { errorMessage: 'must be a boolean, an integer from 0 to 5, or null' })),
  top_logprobs: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  max_tokens: Opt(Nullable(Type.Integer({ minimum: 1, maximum: MAX_COUNT }))),
  max_completion_tokens: Opt(Nullable(Type.Integer({ minimum: 1, maximum: MAX_COUNT }))),
  n: Opt(Nullable(Type.Integer({ minimum: 1, maximum: 128 }))),
  response_format: Opt(Type.Object({ type: Type.String() })),
  seed: Opt(Nullable(Type.Integer())),
  stop: Opt(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 }), Type.Null()], { errorMessage: 'must be a string, an array of at most 4 strings or null' })),
  stream: Opt(Nullable(Type.Boolean())),
  stream_options: Opt(Nullable(Type.Object({}))),
  thinking: Opt(Type.Object({ type: Type.String() })),
  temperature: Opt(Nullable(Type.Number({ minimum: 0, maximum: 2 }))),
  top_p: Opt(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
  tools: Opt(Type.Array(Type.Object({ type: Type.String() }), { maxItems: 128 })),
  tool_choice: Opt(Type.Union([StringEnum(['none', 'auto', 'required']), Type.Object({ type: Type.String() })], { errorMessage: 'must be "none", "auto", "required" or an object' })),
  parallel_tool_calls: Opt(Type.Boolean()),
  user: Opt(Type.String()),
  functions: Opt(Type.Array(Type.Object({ name: Type.String() }), { minItems: 1, maxItems: 128 })),
  best_of: Opt(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  echo: Opt(Nullable(Type.Boolean())),
  suffix: Opt(Nullable(Type.String())),
};

const ContentPart = Type.Object({ type: Type.String(), text: Opt(Type.String()) });
const Message = Type.Object({
  role: StringEnum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: Type.Union([Type.String(), Type.Array(ContentPart, { minItems: 1 }), Type.Null()], {
    errorMessage: 'must be a string, an array of content parts or null',
  }),
  name: Opt(Type.String()),
});
const PromptText = Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 })], {
  errorMessage: 'must be a string or a non-empty array of strings',
});

const template = compile(Type.Object({
  model: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
  messages: Opt(Type.Array(Message, { minItems: 1 })),
  prompt: Opt(PromptText),
  ...Hyperparameters,
}));

const put = compile(Type.Object({ patch: Opt(Type.Boolean()) }));

const render = compile(Type.Object({
  variables: Type.Object({}, { errorMessage: 'must be an object' }),
  version: Opt(Type.Integer({ minimum: 1, maximum: MAX_COUNT })),
  ...Hyperparameters,
}));

/** A PUT body before patching: only its own shape (what the template will be is checked after the backfill). */
export function putIssue(body: Record<string, unknown>): Issue | undefined {
  if (!put.check(body)) return put.issues(body, 1)[0];
  const fields: Record<string, unknown> = body;
  for (const key of RESERVED_KEYS) {
    if (key !== 'patch' && fields[key] !== undefined) return { path: key, rule: 'is not a template field' };
  }
  return undefined;
}

/** A POST body: an optional id, then the template (no patch: there is nothing to backfill from). */
export function createIssue(body: Record<string, unknown>): Issue | undefined {
  const id = body['id'];
  if (id !== undefined && (typeof id !== 'string' || !PROMPT_ID_PATTERN.test(id))) {
    return { path: 'id', rule: 'must be 1 to 128 letters, digits, _ . or -' };
  }
  for (const key of RESERVED_KEYS) {
    if (key !== 'id' && body[key] !== undefined) return { path: key, rule: 'is not a template field' };
  }
  return undefined;
}

/** A complete template (after any patch backfill). */
export function templateIssue(fields: Record<string, unknown>): Issue | undefined {
  if (!template.check(fields)) return template.issues(fields, 1)[0];
  const hasMessages = fields['messages'] !== undefined;
  const hasPrompt = fields['prompt'] !== undefined;
  if (hasMessages && hasPrompt) return { path: 'prompt', rule: 'cannot be set together with messages (a template is chat or text completion)' };
  if (!hasMessages && !hasPrompt) return { path: 'messages', rule: 'is required (or prompt, for a text-completion template)' };
  return undefined;
}

export function renderIssue(body: Record<string, unknown>): Issue | undefined {
  return render.check(body) ? undefined : render.issues(body, 1)[0];
}
