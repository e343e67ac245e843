/** Params of `default.wordCount`: the word count lies in [minWords, maxWords] (outside, with `not`). */
import { Type, type Static } from '../../core/index.js';

export const WordCountParams = Type.Object({
  minWords: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  maxWords: Type.Optional(Type.Integer({ minimum: 0, default: 99999 })),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type WordCountParams = Static<typeof WordCountParams>;
