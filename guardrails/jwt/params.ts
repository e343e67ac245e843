/** Params of `default.jwt`: the request carries a JWT signed by a key of `jwksUri`, with the expected claims. */
import { StringEnum, Type, type Static } from '../../core/index.js';

export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

const OneOrMany = Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })], {
  errorMessage: 'must be a string or an array of strings',
});

export const JwtParams = Type.Object({
  jwksUri: Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' }),
  /** The request header carrying the token (a `Bearer ` prefix is optional). */
  headerKey: Type.Optional(Type.String({ minLength: 1, default: 'Authorization' })),
  /** Accepted signature algorithms; `none` and shared-secret (HS*) algorithms are never accepted. */
  algorithms: Type.Optional(Type.Array(StringEnum([...JWT_ALGORITHMS]), { minItems: 1, default: ['RS256', 'ES256'] })),
  issuer: Type.Optional(OneOrMany),
  audience: Type.Optional(OneOrMany),
  /** Claims that must have these values (an array claim must contain the value). */
  claims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** Tokens without `exp` are refused unless false. */
  requireExp: Type.Optional(Type.Boolean({ default: true })),
  /** Seconds of clock skew tolerated on exp / nbf / iat. */
  clockTolerance: Type.Optional(Type.Integer({ minimum: 0, maximum: 300, default: 5 })),
  /** Seconds a token may have lived since `iat` (no limit when absent). */
  maxTokenAge: Type.Optional(Type.Integer({ minimum: 1 })),
  /** Seconds the key set is kept before it is fetched again. */
  cacheMaxAge: Type.Optional(Type.Integer({ minimum: 0, maximum: 604800, default: 86400 })),
}, { additionalProperties: false });

export type JwtParams = Static<typeof JwtParams>;
