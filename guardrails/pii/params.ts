/** Params of `default.pii`: which kinds of personal data to look for, and whether to redact them. */
import { StringEnum, Type, type Static } from '../../core/index.js';
import { PII_CATEGORIES } from './detectors.js';

export const PiiParams = Type.Object({
  /** Default: every category. */
  categories: Type.Optional(Type.Array(StringEnum([...PII_CATEGORIES]), { minItems: 1, default: [...PII_CATEGORIES] })),
  /** true: replace what is found by placeholders and pass; false: fail when anything is found. */
  redact: Type.Optional(Type.Boolean({ default: false })),
}, { additionalProperties: false });

export type PiiParams = Static<typeof PiiParams>;
