/** Params of `default.alluppercase` and `default.alllowercase`. */
import { Type, type Static } from '../../core/index.js';

export const LetterCaseParams = Type.Object({
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type LetterCaseParams = Static<typeof LetterCaseParams>;
