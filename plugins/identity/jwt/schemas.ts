/**
 * PUT /v1/organisation/sso/jwt { issuer, audience, jwks_uri, algorithms?, claims? }, compiled once.
 * Rules beyond the schema: the key set is fetched over https, or plain http on loopback only (a
 * test or a sidecar), from a host the gateway's outbound policy allows.
 */
import { classifyAddress, compile, Errors, familyOf, Nullable, StringEnum, Type, unbracket, type OutboundPolicy, type Static } from '../../../core/index.js';
import { ALLOWED_ALGORITHMS } from './settings.js';

const Opt = Type.Optional;
const ClaimName = Type.String({ pattern: '^[^\\s]{1,128}$', errorMessage: 'must be a claim name (1 to 128 characters, no spaces)' });
const Audience = Type.String({ minLength: 1, maxLength: 512 });

const PutBody = Type.Object({
  issuer: Type.String({ minLength: 1, maxLength: 2048 }),
  audience: Type.Union([Audience, Type.Array(Audience, { minItems: 1, maxItems: 20 })], {
    errorMessage: 'must be a non-empty string or a list of 1 to 20 non-empty strings',
  }),
  jwks_uri: Type.String({ minLength: 1, maxLength: 2048 }),
  algorithms: Opt(Type.Array(StringEnum([...ALLOWED_ALGORITHMS], { errorMessage: `must be one of ${ALLOWED_ALGORITHMS.join(', ')} (asymmetric algorithms only)` }), {
    minItems: 1, maxItems: ALLOWED_ALGORITHMS.length, uniqueItems: true,
  })),
  claims: Opt(Type.Object({
    subject: Opt(ClaimName),
    email: Opt(ClaimName),
    workspace: Opt(Nullable(ClaimName)),
    groups: Opt(ClaimName),
  }, { additionalProperties: false })),
}, { additionalProperties: false });

export type PutBody = Static<typeof PutBody>;
export const putBody = compile(PutBody);

/** The key set's URL, or 400 naming the rule it breaks. */
export function jwksUrl(value: string, policy: OutboundPolicy): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw Errors.invalidBody('jwks_uri', 'must be an absolute URL');
  }
  if (url.username || url.password) throw Errors.invalidBody('jwks_uri', 'must not carry credentials');
  const host = unbracket(url.hostname);
  if (url.protocol === 'http:') {
    if (!isLoopback(host)) throw Errors.invalidBody('jwks_uri', 'must use https (plain http only on a loopback address)');
  } else if (url.protocol !== 'https:') {
    throw Errors.invalidBody('jwks_uri', 'must use https (plain http only on a loopback address)');
  }
  const refusal = policy.judgeHost(host);
  if (refusal) throw Errors.invalidBody('jwks_uri', refusal.message);
  return url.href;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  return familyOf(host) !== undefined && classifyAddress(host) === 'loopback';
}
