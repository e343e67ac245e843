/**
 * Params of `default.allowedRequestTypes`: which endpoints (request types) a config may be used for,
 * by endpoint id (`chatComplete`, `complete`, `embed`, `moderate`, `rerank` ...). Each list is an
 * array or a comma-separated string.
 */
import { Type, type Static } from '../../core/index.js';

const TypeList = Type.Union([Type.Array(Type.String({ minLength: 1 })), Type.String()], {
  errorMessage: 'must be an array of endpoint ids or a comma-separated string',
});

export const AllowedRequestTypesParams = Type.Object({
  allowedTypes: Type.Optional(TypeList),
  blockedTypes: Type.Optional(TypeList),
}, { additionalProperties: false });

export type AllowedRequestTypesParams = Static<typeof AllowedRequestTypesParams>;
