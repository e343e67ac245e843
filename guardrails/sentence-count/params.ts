/** Params of `default.sentenceCount`: the sentence count lies in [minSentences, maxSentences]. */
import { Type, type Static } from '../../core/index.js';

export const SentenceCountParams = Type.Object({
  minSentences: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  maxSentences: Type.Optional(Type.Integer({ minimum: 0, default: 99999 })),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type SentenceCountParams = Static<typeof SentenceCountParams>;
