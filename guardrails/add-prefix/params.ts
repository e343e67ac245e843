/** Params of `default.addPrefix`: a prefix put before the phase's text. */
import { Type, type Static } from '../../core/index.js';

export const AddPrefixParams = Type.Object({
  prefix: Type.String({ minLength: 1, maxLength: 10000, errorMessage: 'must be a non-empty string (at most 10000 characters)' }),
}, { additionalProperties: false });

export type AddPrefixParams = Static<typeof AddPrefixParams>;
