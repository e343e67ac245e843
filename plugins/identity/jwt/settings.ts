/**
 * An organisation's JWT settings: which tokens it accepts (issuer, audience, key set, algorithms)
 * and which claims name the person, workspace and groups. Only asymmetric algorithms: the key set
 * is public, so a shared-secret (HS*) or unsigned (`none`) token could be forged by anyone.
 */
export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;
export const DEFAULT_ALGORITHMS: readonly string[] = ['RS256', 'ES256', 'EdDSA'];

export interface ClaimNames {
  subject: string;
  email: string;
  /** Unset: the workspace comes from x-gw-workspace or the person's memberships. */
  workspace: string | null;
  groups: string;
}

export const DEFAULT_CLAIMS: Readonly<ClaimNames> = Object.freeze({ subject: 'sub', email: 'email', workspace: null, groups: 'groups' });

export interface JwtSettings {
  organisationId: string;
  issuer: string;
  audience: readonly string[];
  jwksUri: string;
  algorithms: readonly string[];
  claims: ClaimNames;
  createdAt: string;
  lastUpdatedAt: string;
}

/** The answer of GET and PUT /v1/organisation/sso/jwt. */
export function settingsView(s: JwtSettings): Record<string, unknown> {
  return {
    object: 'organisation.sso.jwt',
    organisation_id: s.organisationId,
    issuer: s.issuer,
    audience: s.audience.length === 1 ? s.audience[0] : s.audience,
    jwks_uri: s.jwksUri,
    algorithms: s.algorithms,
    claims: s.claims,
    created_at: s.createdAt,
    last_updated_at: s.lastUpdatedAt,
  };
}
