/** Params of `default.modelWhitelist`: the request's model is one of `models` (none of them, with `not`). */
import { Type, type Static } from '../../core/index.js';

export const ModelWhitelistParams = Type.Object({
  models: Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }), { minItems: 1 }),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type ModelWhitelistParams = Static<typeof ModelWhitelistParams>;
