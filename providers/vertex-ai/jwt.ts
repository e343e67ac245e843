/**
 * The signed assertion of Google's service-account flow (RFC 7523): an RS256 JWT signed with the
 * account's private key, exchanged at its token_uri for an access token.
 */
import { createSign } from 'node:crypto';
import { Errors } from '../../core/index.js';
import type { ServiceAccount } from './target.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Google accepts assertions valid for at most one hour. */
export const ASSERTION_LIFETIME_S = 3600;

export interface AssertionClaims {
  iss: string;
  scope: string;
  aud: string;
  iat: number;
  exp: number;
}

function base64url(json: unknown): string {
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

export function assertionClaims(sa: ServiceAccount, tokenUri: string, nowSeconds: number): AssertionClaims {
  return { iss: sa.client_email, scope: CLOUD_PLATFORM_SCOPE, aud: tokenUri, iat: nowSeconds, exp: nowSeconds + ASSERTION_LIFETIME_S };
}

/** `header.claims.signature`, each base64url; a key that is not a usable PEM is a config error. */
export function signAssertion(sa: ServiceAccount, claims: AssertionClaims): string {
  const header = sa.private_key_id ? { alg: 'RS256', typ: 'JWT', kid: sa.private_key_id } : { alg: 'RS256', typ: 'JWT' };
  const input = `${base64url(header)}.${base64url(claims)}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(input).sign(sa.private_key, 'base64url');
  } catch {
    throw Errors.invalidConfig('cloudC_service_account_json.private_key', 'is not a usable RSA private key (PEM)');
  }
  return `${input}.${signature}`;
}
