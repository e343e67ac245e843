/**
 * Params of `default.requiredMetadataKeyPairs` (v1.13.0, `matchType` v1.15.0): metadata pairs the
 * request must carry. A pair's expected value is a string, or a list of strings for `contains`,
 * `containsAll` and `exact` (any of the list).
 */
import { StringEnum, Type, type Static } from '../../core/index.js';

export const RequiredMetadataKeyPairsParams = Type.Object({
  metadataPairs: Type.Record(
    Type.String({ minLength: 1 }),
    Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 })], { errorMessage: 'must be a string or an array of strings' }),
    { minProperties: 1, errorMessage: 'must be an object with at least one key: value pair' },
  ),
  operator: Type.Optional(StringEnum(['all', 'any', 'none'], { default: 'all' })),
  matchType: Type.Optional(StringEnum(['exact', 'contains', 'containsAll', 'regex'], { default: 'exact' })),
}, { additionalProperties: false });

export type RequiredMetadataKeyPairsParams = Static<typeof RequiredMetadataKeyPairsParams>;
