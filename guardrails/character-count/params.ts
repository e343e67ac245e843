/** Params of `default.characterCount`: the character count lies in [minCharacters, maxCharacters]. */
import { Type, type Static } from '../../core/index.js';

export const CharacterCountParams = Type.Object({
  minCharacters: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  maxCharacters: Type.Optional(Type.Integer({ minimum: 0, default: 9999999 })),
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type CharacterCountParams = Static<typeof CharacterCountParams>;
