/** Body of POST /embeddings (OpenAI's request body). Unknown fields pass on to providers. */
import { StringEnum, Type, type Issue, type Static } from '../../../../core/schema.js';
import { compileBody, Model, TokenId, User } from './common.js';

const TokenIds = Type.Array(TokenId, { minItems: 1 });

const Input = Type.Union(
  [Type.String(), Type.Array(Type.String(), { minItems: 1 }), TokenIds, Type.Array(TokenIds, { minItems: 1 })],
  { errorMessage: 'must be a string, an array of strings, an array of token ids or an array of token id arrays' },
);

export const schema = Type.Object({
  model: Model,
  input: Input,
  encoding_format: Type.Optional(StringEnum(['float', 'base64'])),
  dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
  user: Type.Optional(User),
});

export type EmbeddingsBody = Static<typeof schema>;

const validator = compileBody(schema);

export function validate(body: unknown): Issue[] {
  return validator.check(body) ? [] : validator.issues(body);
}
