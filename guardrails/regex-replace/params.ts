/**
 * Params of `default.regexReplace`: every match of `rule` is replaced by `replacement`
 * (`redactText` is the ecosystem's name for it; default "[REDACTED]"). `$1`, `$<name>` refer to groups.
 */
import { Type, type Static } from '../../core/index.js';

export const RegexReplaceParams = Type.Object({
  rule: Type.String({ minLength: 1, maxLength: 2000, errorMessage: 'must be a non-empty regular expression (at most 2000 characters)' }),
  replacement: Type.Optional(Type.String()),
  redactText: Type.Optional(Type.String()),
  caseInsensitive: Type.Optional(Type.Boolean({ default: false })),
  /** Also fail the check when something was replaced (the replaced text is still written back). */
  failOnDetection: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type RegexReplaceParams = Static<typeof RegexReplaceParams>;
