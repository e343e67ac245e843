/** Body of POST /completions (spec §4.2, limits §8). Unknown fields pass on to providers. */
import { Nullable, Type, type Issue, type Static } from '../../../../core/schema.js';
import {
  compileBody, LogitBias, Model, N, Penalty, Seed, Stop, Stream, StreamOptions, streamOptionsIssue, Temperature, TokenId, TopP, User,
} from './common.js';

// Optional: without a prompt the model starts a new document.
const Prompt = Type.Union(
  [Type.String(), Type.Array(Type.String()), Type.Array(TokenId), Type.Array(Type.Array(TokenId)), Type.Null()],
  { errorMessage: 'must be a string, an array of strings, an array of token ids, an array of token id arrays or null' },
);

export const schema = Type.Object({
  model: Model,
  prompt: Type.Optional(Prompt),
  best_of: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 20 }))),
  echo: Type.Optional(Nullable(Type.Boolean())),
  frequency_penalty: Type.Optional(Penalty),
  presence_penalty: Type.Optional(Penalty),
  logit_bias: Type.Optional(LogitBias),
  logprobs: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 5 }))),
  max_tokens: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  n: Type.Optional(N),
  seed: Type.Optional(Seed),
  stop: Type.Optional(Stop),
  stream: Type.Optional(Stream),
  stream_options: Type.Optional(StreamOptions),
  suffix: Type.Optional(Nullable(Type.String())),
  temperature: Type.Optional(Temperature),
  top_p: Type.Optional(TopP),
  user: Type.Optional(User),
});

export type CompletionsBody = Static<typeof schema>;

const validator = compileBody(schema);

export function validate(body: unknown): Issue[] {
  if (!validator.check(body)) return validator.issues(body);
  const completions = body as CompletionsBody;
  const issue = bestOfIssue(completions) ?? streamOptionsIssue(completions);
  return issue ? [issue] : [];
}

/** best_of candidates are generated server-side to return the best n, so they can't be streamed. */
function bestOfIssue(completions: CompletionsBody): Issue | undefined {
  const { best_of: bestOf, n } = completions;
  if (bestOf == null) return undefined;
  if (n != null && bestOf <= n) return { path: 'best_of', rule: 'must be greater than n' };
  if (bestOf > 1 && completions.stream === true) return { path: 'best_of', rule: 'must not be greater than 1 when stream is true' };
  return undefined;
}
