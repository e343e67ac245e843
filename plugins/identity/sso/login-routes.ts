/**
 * Signing in (no key: these routes are unprotected):
 *   GET  /v1/sso/login?email=&return_to=   the organisation of the email's domain → 302 to its provider
 *                                          (code flow with PKCE, state and nonce kept in the record store)
 *   GET  /v1/sso/callback                  code exchange and ID token checks → a session cookie for the
 *                                          person (created as an organisation member on first sign-in;
 *                                          a deactivated person is refused, 401 person_deactivated);
 *                                          303 to `return_to` when the login named one, else the session as JSON
 *   POST /v1/sso/logout                    ends the cookie's session and clears the cookie
 */
import {
  Errors, JsonPayload, noStoreJson, type Clock, type GatewayRequest, type GatewayResponse, type RequestContext, type RouteDef, type SecretBox,
} from '../../../core/index.js';
import type { Directory, OrgSettings } from '../../admin/workspaces/contract.js';
import { CALLBACK_PATH, cookie, LOGIN_COOKIE, overTls, readCookie, SESSION_COOKIE } from './cookies.js';
import { emailDomain } from './domains.js';
import { LOGIN_TTL_MS, type LoginStates } from './logins.js';
import { oidcFailure, unauthorized, type OidcClients, type ProviderSettings } from './oidc.js';
import { maxSessionTtl } from './session-auth.js';
import type { SessionStore } from './sessions.js';
import type { SsoRepo } from './sso-repo.js';

export interface LoginRouteDeps {
  repo: SsoRepo;
  box: SecretBox;
  clients: OidcClients;
  logins: LoginStates;
  sessions: SessionStore;
  directory: () => Directory;
  settings: () => OrgSettings;
  clock: Clock;
  /** The gateway's public base URL (the callback's origin); else taken from the request's Host. */
  publicUrl: string | undefined;
  /** A session's lifetime when the organisation sets no shorter max_session_ttl. */
  sessionTtlSeconds: number;
}

export function loginRoutes(deps: LoginRouteDeps): RouteDef[] {
  const { repo, clients } = deps;

  /** The organisation's provider settings with the client secret opened, or 404. */
  const providerOf = async (organisationId: string): Promise<ProviderSettings> => {
    const row = await repo.provider(organisationId);
    if (!row) throw Errors.notFound('the organisation of this email has no SSO provider configured', 'sso_not_configured');
    const settings: ProviderSettings = { issuer: row.issuer, clientId: row.client_id, version: String(row.updated_at) };
    if (row.client_secret !== null) settings.clientSecret = deps.box.decrypt(row.client_secret, organisationId);
    return settings;
  };

  return [
    {
      method: 'GET', path: '/v1/sso/login', body: 'none', protected: false,
      handler: async (ctx) => {
        const email = ctx.request.query.get('email') ?? '';
        const domain = emailDomain(email);
        if (!domain) throw Errors.invalidRequest('query.email: must be an email address', 'email', 'invalid_query');
        const returnTo = returnPath(ctx.request.query.get('return_to'));
        const owner = await repo.covering(domain);
        if (!owner) throw Errors.notFound(`no organisation signs in with SSO for the domain ${domain}`, 'sso_domain_unknown');
        const provider = await providerOf(owner.organisation_id);
        const config = await clients.configuration(owner.organisation_id, provider).catch((e: unknown) => {
          throw oidcFailure(e);
        });
        const secrets = await clients.newLogin();
        const login = { ...secrets, organisationId: owner.organisation_id, redirectUri: callbackUrl(ctx.request, deps.publicUrl), returnTo };
        const browser = await deps.logins.begin(login);
        const location = await clients.authorizationUrl(config, { ...login, loginHint: email });
        return redirect(302, location.href, cookie(LOGIN_COOKIE, browser, { path: CALLBACK_PATH, maxAgeSeconds: LOGIN_TTL_MS / 1000, secure: overTls(ctx.request) }));
      },
    },
    {
      method: 'GET', path: CALLBACK_PATH, body: 'none', protected: false,
      handler: async (ctx) => {
        const state = ctx.request.query.get('state');
        if (!state) throw Errors.invalidRequest('query.state: is required (the provider sends it back)', 'state', 'invalid_query');
        const login = await deps.logins.take(state, readCookie(ctx.request, LOGIN_COOKIE));
        if (!login) {
          throw Errors.invalidRequest('query.state: matches no login in progress from this browser (unknown, used, expired or altered): sign in again', 'state', 'sso_state_invalid');
        }
        const provider = await providerOf(login.organisationId);
        const person = await (async () => {
          const config = await clients.configuration(login.organisationId, provider);
          const current = new URL(login.redirectUri);
          current.search = ctx.request.query.toString();
          return clients.finish(config, current, { state: login.state, nonce: login.nonce, codeVerifier: login.codeVerifier });
        })().catch((e: unknown) => {
          throw oidcFailure(e);
        });
        // The provider speaks for the organisation's own domains only.
        const domain = emailDomain(person.email);
        const owner = domain === undefined ? undefined : await repo.covering(domain);
        if (!owner || owner.organisation_id !== login.organisationId) {
          throw Errors.forbidden(`the identity provider signed in ${person.email}, whose domain is not an SSO domain of the organisation`);
        }
        const found = await deps.directory().findOrCreatePerson(login.organisationId, person.name === undefined ? { email: person.email } : { email: person.email, name: person.name });
        if (!found.active) throw unauthorized(`${found.email} is deactivated in the organisation (by its identity provider's provisioning): no session is opened`, 'person_deactivated');
        const limit = maxSessionTtl(await deps.settings().get(undefined, login.organisationId));
        const ttlSeconds = Math.min(deps.sessionTtlSeconds, limit ?? Infinity);
        await deps.sessions.sweep();
        const { row, token } = await deps.sessions.create(login.organisationId, found.id, ttlSeconds * 1000);
        const setCookie = cookie(SESSION_COOKIE, token, { path: '/', maxAgeSeconds: ttlSeconds, secure: overTls(ctx.request) });
        if (login.returnTo !== null) return redirect(303, login.returnTo, setCookie);
        const answer = noStoreJson(200, {
          object: 'sso_session',
          id: row.id,
          organisation_id: row.organisation_id,
          user: { id: found.id, email: found.email, role: found.role, created: found.created },
          created_at: new Date(row.created_at).toISOString(),
          expires_at: new Date(row.expires_at).toISOString(),
        });
        answer.headers['set-cookie'] = setCookie;
        return answer;
      },
    },
    {
      method: 'POST', path: '/v1/sso/logout', body: 'none', protected: false,
      handler: async (ctx: RequestContext) => {
        const token = readCookie(ctx.request, SESSION_COOKIE);
        const ended = token !== undefined && await deps.sessions.endByToken(token);
        const answer = noStoreJson(200, { object: 'sso_logout', ended });
        answer.headers['set-cookie'] = cookie(SESSION_COOKIE, '', { path: '/', maxAgeSeconds: 0, secure: overTls(ctx.request) });
        return answer;
      },
    },
  ];
}

/** Where the provider sends the browser back: `<public URL>/v1/sso/callback`. */
function callbackUrl(request: GatewayRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return new URL(CALLBACK_PATH, publicUrl).href;
  const host = request.headers['host'];
  if (!host) throw Errors.invalidHeader('host', 'is required to build the SSO callback URL (or set the plugin option publicUrl)');
  return `${overTls(request) ? 'https' : 'http'}://${host}${CALLBACK_PATH}`;
}

/** `return_to` is a path on this gateway (never another site: no open redirect). */
function returnPath(value: string | null): string | null {
  if (value === null || value === '') return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\r\n]/.test(value)) {
    throw Errors.invalidRequest('query.return_to: must be a path on this gateway, starting with a single /', 'return_to', 'invalid_query');
  }
  return value;
}

function redirect(status: 302 | 303, location: string, setCookie: string): GatewayResponse {
  return {
    status,
    headers: { location, 'set-cookie': setCookie, 'cache-control': 'no-store', 'content-type': 'application/json' },
    json: JsonPayload.of({ object: 'redirect', location }),
  };
}
