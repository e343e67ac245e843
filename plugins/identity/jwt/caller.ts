/**
 * The identity rule on protected routes. A request WITH `x-gw-api-key` is left to auth.api-key and
 * its `Authorization` stays the provider's key. A request WITHOUT one names its caller with
 * `Authorization: Bearer <token>` (or `x-api-key`): an accepted JWT, or a gateway key. The header
 * that named the caller is then taken off the request, so nothing after this (direct-mode config
 * headers, stored configs, batches that capture headers, forward_headers) can send it to a
 * provider: the provider credential comes from the config or an integration.
 * A bearer that is neither a JWT nor a known key is left alone: auth.api-key answers 401.
 */
import type { KeyStore, Principal, RequestContext } from '../../../core/index.js';
import { mapClaims } from './claims.js';
import { WORKSPACE_HEADER } from '../common/workspace-choice.js';
import type { PersonPrincipals } from './person.js';
import { looksLikeJwt, type JwtVerifier } from './verify.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

interface Credential {
  header: 'authorization' | 'x-api-key';
  token: string;
}

export class CallerIdentity {
  constructor(
    private readonly verifier: JwtVerifier,
    private readonly people: PersonPrincipals,
    private readonly keys: () => KeyStore | undefined,
  ) {}

  async identify(ctx: RequestContext): Promise<void> {
    const headers = ctx.request.headers;
    if (ctx.principal || headers['x-gw-api-key'] !== undefined) return;
    const credential = credentialOf(headers);
    if (!credential) return;
    const principal = looksLikeJwt(credential.token)
      ? await this.#fromJwt(credential.token, headers[WORKSPACE_HEADER])
      : await this.keys()?.verify(credential.token);
    if (!principal) return;
    delete headers[credential.header];
    ctx.principal = principal;
  }

  async #fromJwt(token: string, workspaceHeader: string | undefined): Promise<Principal> {
    const { settings, claims } = await this.verifier.verify(token);
    return this.people.principal(settings.organisationId, mapClaims(claims, settings.claims), workspaceHeader);
  }
}

function credentialOf(headers: Record<string, string | undefined>): Credential | undefined {
  const authorization = headers['authorization'];
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    return match ? { header: 'authorization', token: match[1]! } : undefined;
  }
  const apiKey = headers['x-api-key']?.trim();
  return apiKey ? { header: 'x-api-key', token: apiKey } : undefined;
}
