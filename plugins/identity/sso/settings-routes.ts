/**
 * An organisation's SSO settings (organisation owners and admins, or organisation-level keys with
 * the scope; workspace keys never):
 *   GET    /v1/organisation/sso                 issuer, client_id, has_client_secret (the secret is never answered)
 *   PUT    /v1/organisation/sso                 { issuer, client_id, client_secret? } (omitted: kept; null: removed)
 *   DELETE /v1/organisation/sso
 *   GET    /v1/organisation/sso/domains
 *   POST   /v1/organisation/sso/domains         { domain, allow_subdomains? } (allow_subdomains: root domains only)
 *   DELETE /v1/organisation/sso/domains/:domain
 * Scopes: organisation_settings.read | update. The client secret is sealed with the secret box.
 */
import {
  compile, Errors, isOrganisationLevel, Nullable, noStoreJson, parseBody, requireScope, Type,
  type Clock, type Principal, type RequestContext, type RouteDef, type SecretBox,
} from '../../../core/index.js';
import { isRootDomain, normaliseDomain, parentDomains } from './domains.js';
import { isLoopbackHost, type OidcClients } from './oidc.js';
import type { DomainRow, ProviderRow, SsoRepo } from './sso-repo.js';

const ProviderBody = compile(Type.Object({
  issuer: Type.String({ minLength: 1, maxLength: 2048 }),
  client_id: Type.String({ minLength: 1, maxLength: 512 }),
  client_secret: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 4096 }))),
}, { additionalProperties: false }));

const DomainBody = compile(Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  allow_subdomains: Type.Optional(Type.Boolean()),
}, { additionalProperties: false }));

export interface SettingsRouteDeps {
  repo: SsoRepo;
  box: SecretBox;
  clients: OidcClients;
  clock: Clock;
}

export function settingsRoutes(deps: SettingsRouteDeps): RouteDef[] {
  const { repo, box, clients } = deps;
  const providerAnswer = (row: ProviderRow) => noStoreJson(200, {
    object: 'sso_settings',
    organisation_id: row.organisation_id,
    issuer: row.issuer,
    client_id: row.client_id,
    has_client_secret: row.client_secret !== null,
    created_at: iso(row.created_at),
    last_updated_at: iso(row.updated_at),
  });

  return [
    {
      method: 'GET', path: '/v1/organisation/sso', body: 'none',
      handler: async (ctx) => {
        const organisationId = organisationOf(ctx, 'organisation_settings.read');
        const row = await repo.provider(organisationId);
        if (!row) throw Errors.notFound('the organisation has no SSO provider (PUT /v1/organisation/sso)', 'sso_not_configured');
        return providerAnswer(row);
      },
    },
    {
      method: 'PUT', path: '/v1/organisation/sso', body: 'json',
      handler: async (ctx) => {
        const organisationId = organisationOf(ctx, 'organisation_settings.update');
        const body = parseBody(ctx, ProviderBody);
        const issuer = checkIssuer(body.issuer);
        const current = await repo.provider(organisationId);
        const now = deps.clock.now();
        let secret = current?.client_secret ?? null;
        if (body.client_secret === null) secret = null;
        else if (body.client_secret !== undefined) secret = box.encrypt(body.client_secret, organisationId);
        const row: ProviderRow = {
          organisation_id: organisationId, issuer, client_id: body.client_id, client_secret: secret,
          created_at: current?.created_at ?? now, updated_at: now,
        };
        await repo.putProvider(row);
        clients.forget(organisationId);
        return providerAnswer(row);
      },
    },
    {
      method: 'DELETE', path: '/v1/organisation/sso', body: 'none',
      handler: async (ctx) => {
        const organisationId = organisationOf(ctx, 'organisation_settings.update');
        if (!(await repo.deleteProvider(organisationId))) throw Errors.notFound('the organisation has no SSO provider', 'sso_not_configured');
        clients.forget(organisationId);
        return noStoreJson(200, { object: 'sso_settings', organisation_id: organisationId, deleted: true });
      },
    },
    {
      method: 'GET', path: '/v1/organisation/sso/domains', body: 'none',
      handler: async (ctx) => {
        const rows = await repo.domains(organisationOf(ctx, 'organisation_settings.read'));
        return noStoreJson(200, { object: 'list', total_count: rows.length, data: rows.map(domainView) });
      },
    },
    {
      method: 'POST', path: '/v1/organisation/sso/domains', body: 'json',
      handler: async (ctx) => {
        const organisationId = organisationOf(ctx, 'organisation_settings.update');
        const body = parseBody(ctx, DomainBody);
        const domain = normaliseDomain(body.domain);
        if (!domain) throw Errors.invalidBody('domain', 'must be a domain name such as example.com');
        const allowSubdomains = body.allow_subdomains === true;
        if (allowSubdomains && !isRootDomain(domain)) {
          throw Errors.invalidBody('allow_subdomains', `is allowed only on a root domain (such as example.com); ${domain} is a subdomain`);
        }
        await assertFree(repo, domain, allowSubdomains, organisationId);
        const row: DomainRow = { domain, organisation_id: organisationId, allow_subdomains: allowSubdomains ? 1 : 0, created_at: deps.clock.now() };
        await repo.insertDomain(row).catch(async (e: unknown) => {
          if (await repo.domain(domain)) throw taken(domain);
          throw e;
        });
        return noStoreJson(200, domainView(row));
      },
    },
    {
      method: 'DELETE', path: '/v1/organisation/sso/domains/:domain', body: 'none',
      handler: async (ctx) => {
        const organisationId = organisationOf(ctx, 'organisation_settings.update');
        const domain = normaliseDomain(ctx.params['domain']!) ?? ctx.params['domain']!;
        if (!(await repo.deleteDomain(organisationId, domain))) throw Errors.notFound(`no SSO domain "${domain}" in the organisation`, 'sso_domain_not_found');
        return noStoreJson(200, { object: 'sso_domain', domain, deleted: true });
      },
    },
  ];
}

/** The caller's organisation, for organisation-level callers holding `scope`. */
function organisationOf(ctx: RequestContext, scope: string): string {
  const principal: Principal = requireScope(ctx, scope);
  if (!isOrganisationLevel(principal)) throw Errors.forbidden('a workspace key cannot read or change the organisation\'s SSO settings');
  if (principal.organisationId === undefined) throw Errors.forbidden('the API key belongs to no organisation');
  return principal.organisationId;
}

/** An issuer is an https URL (plain http only on a loopback host), without query or fragment. */
function checkIssuer(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw Errors.invalidBody('issuer', 'must be the provider\'s issuer URL, e.g. https://login.example.com');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw Errors.invalidBody('issuer', 'must be an https URL (plain http only on a loopback host)');
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw Errors.invalidBody('issuer', 'must have no query, fragment or credentials');
  }
  // Kept as given: the ID token's iss must equal it exactly.
  return value;
}

/**
 * A domain belongs to one organisation, and none reaches into another's: not a subdomain of a
 * domain another organisation holds with allow_subdomains, nor (with allow_subdomains) a parent of
 * another organisation's domains.
 */
async function assertFree(repo: SsoRepo, domain: string, allowSubdomains: boolean, organisationId: string): Promise<void> {
  if (await repo.domain(domain)) throw taken(domain);
  for (const parent of parentDomains(domain)) {
    const row = await repo.domain(parent);
    if (row && row.allow_subdomains === 1 && row.organisation_id !== organisationId) throw taken(domain);
  }
  if (allowSubdomains && (await repo.subdomainsOf(domain)).some((row) => row.organisation_id !== organisationId)) throw taken(domain);
}

function taken(domain: string) {
  return Errors.invalidRequest(`body.domain: ${domain} is registered for SSO already (here or by another organisation)`, 'domain', 'duplicate');
}

function domainView(row: DomainRow) {
  return { object: 'sso_domain', domain: row.domain, allow_subdomains: row.allow_subdomains === 1, organisation_id: row.organisation_id, created_at: iso(row.created_at) };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
