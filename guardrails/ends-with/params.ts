/** Params of `default.endsWith`: the text ends with `suffix` (optionally followed by a full stop). */
import { Type, type Static } from '../../core/index.js';

export const EndsWithParams = Type.Object({
  suffix: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type EndsWithParams = Static<typeof EndsWithParams>;
