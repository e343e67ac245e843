/**
 * Google's service-account flow (RFC 7523), shared by every Google API the gateway calls (Vertex AI,
 * Secret Manager): an RS256 JWT signed with the account's private key, exchanged at the account's
 * token_uri for an access token. The tokens themselves are cached by google-tokens.ts.
 */
import { createSign } from 'node:crypto';
import { Errors } from '../errors.js';

/** The fields of a Google service-account key file that the token exchange needs. */
export interface ServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  token_uri?: string;
  project_id?: string;
}

export const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
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

export function assertionClaims(sa: ServiceAccount, tokenUri: string, nowSeconds: number, scope = CLOUD_PLATFORM_SCOPE): AssertionClaims {
  return { iss: sa.client_email, scope, aud: tokenUri, iat: nowSeconds, exp: nowSeconds + ASSERTION_LIFETIME_S };
}

/**
 * `header.claims.signature`, each base64url. A key that is not a usable PEM is a config error
 * naming `keyPath`, where the caller keeps the private key (never the key itself).
 */
export function signAssertion(sa: ServiceAccount, claims: AssertionClaims, keyPath = 'service_account_json.private_key'): string {
  const header = sa.private_key_id ? { alg: 'RS256', typ: 'JWT', kid: sa.private_key_id } : { alg: 'RS256', typ: 'JWT' };
  const input = `${base64url(header)}.${base64url(claims)}`;
  let signature: string;
  try {
    signature = createSign('RSA-SHA256').update(input).sign(sa.private_key, 'base64url');
  } catch {
    throw Errors.invalidConfig(keyPath, 'is not a usable RSA private key (PEM)');
  }
  return `${input}.${signature}`;
}
