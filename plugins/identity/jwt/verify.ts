/**
 * Verifying a caller's JWT for the organisation whose settings name its issuer: signature by a key
 * of the organisation's key set, an allowed algorithm, issuer, audience, `exp` required, `nbf` and
 * `exp` within the clock tolerance. Every refusal is a 401 naming the rule broken, never the token.
 */
import type { JWTPayload } from 'jose';
import { Errors, GatewayError } from '../../../core/index.js';
import { jose, type Jose } from './jose.js';
import type { KeySets } from './key-sets.js';
import type { JwtSettings } from './settings.js';
import type { JwtSettingsStore } from './settings-store.js';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a credential has the shape of a compact JWS (three base64url parts): a JWT, not a key. */
export function looksLikeJwt(token: string): boolean {
  return token.length < 16_384 && JWT_SHAPE.test(token);
}

export interface Verified {
  settings: JwtSettings;
  claims: JWTPayload;
}

export class JwtVerifier {
  constructor(
    private readonly settings: JwtSettingsStore,
    private readonly keySets: KeySets,
    private readonly clockToleranceSeconds: number,
  ) {}

  async verify(token: string): Promise<Verified> {
    const lib = jose.loaded ?? await jose();
    const settings = this.#settingsFor(lib, token);
    try {
      const { payload } = await lib.jwtVerify(token, this.keySets.of(lib, settings.jwksUri, this.settings.generation), {
        issuer: settings.issuer,
        audience: [...settings.audience],
        algorithms: [...settings.algorithms],
        clockTolerance: this.clockToleranceSeconds,
        requiredClaims: ['exp'],
      });
      return { settings, claims: payload };
    } catch (e) {
      throw refusal(lib.errors, e);
    }
  }

  /** The organisation accepting the token's issuer (and, when several do, its audience). */
  #settingsFor(lib: Jose, token: string): JwtSettings {
    let claims: JWTPayload;
    try {
      lib.decodeProtectedHeader(token);
      claims = lib.decodeJwt(token);
    } catch {
      throw rejected('the token is not a well-formed JWT');
    }
    if (typeof claims.iss !== 'string') throw rejected('the token has no issuer (iss)');
    const candidates = this.settings.forIssuer(claims.iss);
    if (candidates.length === 0) throw rejected('unexpected issuer (iss): no organisation accepts tokens from it');
    const audiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    return candidates.find((s) => s.audience.some((a) => audiences.includes(a))) ?? candidates[0]!;
  }
}

function rejected(why: string): GatewayError {
  return Errors.unauthorized(`bearer JWT refused: ${why}`);
}

/** jose's error as the reason a caller reads; a key set that cannot be fetched is the gateway's problem (503). */
function refusal(errors: Jose['errors'], e: unknown): GatewayError {
  if (e instanceof GatewayError) return unavailable(e.message);
  if (e instanceof errors.JWTExpired) return rejected('the token has expired (exp)');
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'nbf') return rejected('the token is not valid yet (nbf)');
    if (e.claim === 'iss') return rejected('unexpected issuer (iss)');
    if (e.claim === 'aud') return rejected('unexpected audience (aud)');
    if (e.claim === 'iat') return rejected('the issue time (iat) is invalid');
    if (e.reason === 'missing') return rejected(`the token has no ${e.claim} claim`);
    return rejected(`claim ${e.claim} is invalid`);
  }
  if (e instanceof errors.JOSEAlgNotAllowed) return rejected('the algorithm (alg) is not allowed for this organisation');
  if (e instanceof errors.JOSENotSupported) return rejected('the algorithm (alg) or key type is not supported');
  if (e instanceof errors.JWKSNoMatchingKey) return rejected('no key of the organisation\'s key set matches the token (kid)');
  if (e instanceof errors.JWKSMultipleMatchingKeys) return rejected('several keys of the key set match the token: it must name one (kid)');
  if (e instanceof errors.JWSSignatureVerificationFailed) return rejected('the signature does not verify');
  if (e instanceof errors.JWSInvalid || e instanceof errors.JWTInvalid) return rejected('the token is not a well-formed JWT');
  if (e instanceof errors.JWKSTimeout) return unavailable('it did not answer in time');
  return unavailable(e instanceof errors.JWKSInvalid ? 'it is not a JSON Web Key Set' : 'it did not answer 200 with a JSON Web Key Set');
}

function unavailable(why: string): GatewayError {
  return new GatewayError({ status: 503, message: `the organisation's key set (jwks_uri) could not be fetched: ${why}`, code: 'jwks_unavailable' });
}
