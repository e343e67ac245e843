/** Params of `default.contains`: the text contains any / all / none of `words`. */
import { StringEnum, Type, type Static } from '../../core/index.js';

export const ContainsParams = Type.Object({
  /** Words or phrases, matched as substrings. */
  words: Type.Array(Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }), { minItems: 1, maxItems: 1000 }),
  operator: Type.Optional(StringEnum(['any', 'all', 'none'], { default: 'any' })),
  /** Default true, as in the existing ecosystem; false compares case-insensitively. */
  caseSensitive: Type.Optional(Type.Boolean({ default: true })),
}, { additionalProperties: false });

export type ContainsParams = Static<typeof ContainsParams>;
