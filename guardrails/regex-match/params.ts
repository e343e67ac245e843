/** Params of `default.regexMatch`: the text must (or, with `not`, must not) match `rule`. */
import { Type, type Static } from '../../core/index.js';

export const RegexMatchParams = Type.Object({
  /** A JavaScript regular expression, without slashes or flags. */
  rule: Type.String({ minLength: 1, maxLength: 2000, errorMessage: 'must be a non-empty regular expression (at most 2000 characters)' }),
  /** Case-insensitive matching (the `i` flag). */
  caseInsensitive: Type.Optional(Type.Boolean({ default: false })),
  /** Inverts the verdict: passes when the text does not match. */
  not: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type RegexMatchParams = Static<typeof RegexMatchParams>;
