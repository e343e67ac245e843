/**
 * The organisation's JWT settings (organisation owners and admins only):
 *   PUT    /v1/organisation/sso/jwt  { issuer, audience, jwks_uri, algorithms?, claims?: { subject, email, workspace, groups } }
 *   GET    /v1/organisation/sso/jwt  the settings; 404 when JWT callers are off
 *   DELETE /v1/organisation/sso/jwt  turns JWT callers off
 */
import {
  Errors, isOrganisationAdmin, noStoreJson, parseBody, principalOf, type OutboundPolicy, type Principal, type RequestContext, type RouteDef,
} from '../../../core/index.js';
import { jwksUrl, putBody } from './schemas.js';
import { DEFAULT_ALGORITHMS, DEFAULT_CLAIMS, settingsView, type JwtSettings } from './settings.js';
import type { JwtSettingsStore } from './settings-store.js';

const PATH = '/v1/organisation/sso/jwt';

export function jwtSettingsRoutes(store: JwtSettingsStore, outbound: OutboundPolicy): RouteDef[] {
  const configured = (organisationId: string): JwtSettings => {
    const settings = store.of(organisationId);
    if (!settings) throw Errors.notFound('the organisation accepts no JWT callers (PUT /v1/organisation/sso/jwt turns them on)', 'jwt_not_configured');
    return settings;
  };

  return [
    {
      method: 'PUT', path: PATH, body: 'json',
      handler: async (ctx) => {
        const organisationId = organisationAdmin(ctx);
        const body = parseBody(ctx, putBody);
        const saved = await store.put({
          organisationId,
          issuer: body.issuer,
          audience: typeof body.audience === 'string' ? [body.audience] : [...new Set(body.audience)],
          jwksUri: jwksUrl(body.jwks_uri, outbound),
          algorithms: body.algorithms ?? DEFAULT_ALGORITHMS,
          claims: { ...DEFAULT_CLAIMS, ...body.claims },
        }, new Date().toISOString());
        return noStoreJson(200, settingsView(saved));
      },
    },
    {
      method: 'GET', path: PATH, body: 'none',
      handler: async (ctx) => noStoreJson(200, settingsView(configured(organisationAdmin(ctx)))),
    },
    {
      method: 'DELETE', path: PATH, body: 'none',
      handler: async (ctx) => {
        const organisationId = organisationAdmin(ctx);
        configured(organisationId);
        await store.delete(organisationId);
        return noStoreJson(200, { object: 'organisation.sso.jwt', organisation_id: organisationId, deleted: true });
      },
    },
  ];
}

function organisationAdmin(ctx: RequestContext): string {
  const principal: Principal = principalOf(ctx);
  if (!isOrganisationAdmin(principal)) throw Errors.forbidden('only organisation owners and admins manage the organisation\'s JWT settings');
  if (principal.organisationId === undefined) throw Errors.forbidden('the API key belongs to no organisation');
  return principal.organisationId;
}
