/** Params of `default.jsonKeys`: the JSON in the text has any / all / none of `keys` at its top level. */
import { StringEnum, Type, type Static } from '../../core/index.js';

export const JsonKeysParams = Type.Object({
  keys: Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }), { minItems: 1 }),
  operator: Type.Optional(StringEnum(['any', 'all', 'none'], { default: 'any' })),
}, { additionalProperties: false });

export type JsonKeysParams = Static<typeof JsonKeysParams>;
