/** Body of POST /moderations (spec §4.3). The default model is applied elsewhere; the body is not changed. */
import { Type, type Issue, type Static } from '../../../../core/schema.js';
import { compileBody, Model } from './common.js';

// Multi-modal items ({type: "text", text} or {type: "image_url", image_url}) are for omni models.
const Input = Type.Union(
  [Type.String(), Type.Array(Type.String(), { minItems: 1 }), Type.Array(Type.Object({ type: Type.String() }), { minItems: 1 })],
  { errorMessage: 'must be a string, an array of strings or an array of input objects' },
);

export const schema = Type.Object({
  input: Input,
  model: Type.Optional(Model),
});

export type ModerationsBody = Static<typeof schema>;

const validator = compileBody(schema);

export function validate(body: unknown): Issue[] {
  return validator.check(body) ? [] : validator.issues(body);
}
