/** Params of `default.containsCode`: the text contains a fenced code block in `format`. */
import { StringEnum, Type, type Static } from '../../core/index.js';
import { CODE_FORMATS } from './languages.js';

export const ContainsCodeParams = Type.Object({
  format: StringEnum([...CODE_FORMATS]),
  /** Inverts the verdict: passes when there is no code block in `format` (e.g. "no SQL in answers"). */
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type ContainsCodeParams = Static<typeof ContainsCodeParams>;
