/**
 * A compact JWS: decoding, signature verification with node:crypto, and the registered claims.
 * Only asymmetric algorithms: a gateway verifying with a public key set has no shared secret.
 */
import { constants, verify, type KeyObject } from 'node:crypto';
import { DEFAULT_JSON_MAX_DEPTH, nestsDeeperThan } from '../../core/index.js';
import type { JwtAlgorithm } from './params.js';

export interface DecodedJwt {
  header: { alg?: unknown; kid?: unknown; typ?: unknown };
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

/** Decodes without verifying; undefined when the token is not a well-formed JWS. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first + 1 || token.indexOf('.', second + 1) !== -1) return undefined;
  try {
    const headerText = Buffer.from(token.slice(0, first), 'base64url').toString('utf8');
    const payloadText = Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8');
    // Claims are compared as JSON text later: a token nested absurdly deep is not a token we judge.
    if (nestsDeeperThan(headerText, DEFAULT_JSON_MAX_DEPTH) || nestsDeeperThan(payloadText, DEFAULT_JSON_MAX_DEPTH)) return undefined;
    const header = JSON.parse(headerText) as unknown;
    const payload = JSON.parse(payloadText) as unknown;
    if (!isObject(header) || !isObject(payload)) return undefined;
    return { header, payload, signingInput: token.slice(0, second), signature: Buffer.from(token.slice(second + 1), 'base64url') };
  } catch {
    return undefined;
  }
}

const DIGEST: Record<JwtAlgorithm, string | null> = {
  RS256: 'sha256', RS384: 'sha384', RS512: 'sha512',
  PS256: 'sha256', PS384: 'sha384', PS512: 'sha512',
  ES256: 'sha256', ES384: 'sha384', ES512: 'sha512',
  EdDSA: null,
};

/** Whether `key` fits `alg` (an RSA key cannot verify ES256 and so on). */
export function keyFits(alg: JwtAlgorithm, key: KeyObject): boolean {
  const type = key.asymmetricKeyType;
  if (alg.startsWith('RS')) return type === 'rsa';
  if (alg.startsWith('PS')) return type === 'rsa' || type === 'rsa-pss';
  if (alg.startsWith('ES')) return type === 'ec';
  return type === 'ed25519' || type === 'ed448';
}

export function verifySignature(alg: JwtAlgorithm, key: KeyObject, jwt: DecodedJwt): boolean {
  const data = Buffer.from(jwt.signingInput, 'ascii');
  try {
    if (alg.startsWith('ES')) return verify(DIGEST[alg], data, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature);
    if (alg.startsWith('PS')) {
      return verify(DIGEST[alg], data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, jwt.signature);
    }
    return verify(DIGEST[alg], data, key, jwt.signature);
  } catch {
    return false;
  }
}

export interface ClaimRules {
  issuer?: string | string[];
  audience?: string | string[];
  claims?: Record<string, unknown>;
  requireExp: boolean;
  clockTolerance: number;
  maxTokenAge?: number;
}

/** The first broken claim rule, or undefined when every rule holds. `now` in seconds. */
export function claimProblem(payload: Record<string, unknown>, rules: ClaimRules, now: number): string | undefined {
  const { exp, nbf, iat, iss, aud } = payload;
  const skew = rules.clockTolerance;
  if (exp === undefined) {
    if (rules.requireExp) return 'the token has no exp claim';
  } else if (typeof exp !== 'number') return 'exp is not a number';
  else if (now > exp + skew) return 'the token has expired';
  if (nbf !== undefined && (typeof nbf !== 'number' || now + skew < nbf)) return 'the token is not valid yet (nbf)';
  if (rules.maxTokenAge !== undefined) {
    if (typeof iat !== 'number') return 'the token has no iat claim (maxTokenAge is set)';
    if (now - iat > rules.maxTokenAge + skew) return 'the token is older than maxTokenAge';
  }
  if (rules.issuer !== undefined && !(typeof iss === 'string' && oneOf(rules.issuer).includes(iss))) return 'unexpected issuer (iss)';
  if (rules.audience !== undefined) {
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (!oneOf(rules.audience).some((a) => audiences.includes(a))) return 'unexpected audience (aud)';
  }
  if (rules.claims) {
    for (const name in rules.claims) {
      if (!claimHolds(payload[name], rules.claims[name])) return `claim "${name}" does not have the expected value`;
    }
  }
  return undefined;
}

function claimHolds(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual) && !Array.isArray(expected)) return actual.some((a) => sameJson(a, expected));
  return sameJson(actual, expected);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function oneOf(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
