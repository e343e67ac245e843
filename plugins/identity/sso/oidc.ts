/**
 * The OpenID Connect client side, with `openid-client`: discovery (cached per organisation until
 * its settings change), the authorization URL (code flow, PKCE S256, state, nonce) and the code
 * exchange with every ID token check (signature from the provider's JWKS, issuer, audience, expiry,
 * nonce). Plain-HTTP issuers are accepted only on loopback hosts (tests, local providers).
 * The library is loaded on the first sign-in, so gateways that never use SSO do not pay for it at boot.
 */
import type * as Client from 'openid-client';
import { Errors, GatewayError } from '../../../core/index.js';

let library: typeof Client | undefined;

async function openid(): Promise<typeof Client> {
  library ??= await import('openid-client');
  return library;
}

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  /** Absent for a public client (PKCE alone). */
  clientSecret?: string;
  /** Changes whenever the settings do: a cached discovery of older settings is not reused. */
  version: string;
}

export interface Person {
  subject: string;
  email: string;
  name?: string;
}

/** Scopes always asked for; OIDC_CUSTOM_SCOPES adds more. */
export const BASE_SCOPES = ['openid', 'email', 'profile'] as const;
const DISCOVERY_TTL_MS = 10 * 60 * 1000;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

export class OidcClients {
  readonly #cache = new Map<string, { version: string; until: number; config: Promise<Client.Configuration> }>();

  constructor(
    private readonly scopes: readonly string[],
    private readonly timeoutMs: number,
  ) {}

  /** The provider's configuration for an organisation (discovered once, then cached). */
  configuration(organisationId: string, settings: ProviderSettings): Promise<Client.Configuration> {
    const now = Date.now();
    const hit = this.#cache.get(organisationId);
    if (hit && hit.version === settings.version && hit.until > now) return hit.config;
    const config = discover(settings, this.timeoutMs);
    this.#cache.set(organisationId, { version: settings.version, until: now + DISCOVERY_TTL_MS, config });
    // A failed discovery is not remembered: the next login tries again.
    config.catch(() => {
      if (this.#cache.get(organisationId)?.config === config) this.#cache.delete(organisationId);
    });
    return config;
  }

  forget(organisationId: string): void {
    this.#cache.delete(organisationId);
  }

  /** Fresh state, nonce and PKCE verifier (with its S256 challenge) for one login. */
  async newLogin(): Promise<{ state: string; nonce: string; codeVerifier: string; codeChallenge: string }> {
    const client = await openid();
    const codeVerifier = client.randomPKCECodeVerifier();
    return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier) };
  }

  async authorizationUrl(config: Client.Configuration, login: { redirectUri: string; state: string; nonce: string; codeChallenge: string; loginHint: string }): Promise<URL> {
    return (await openid()).buildAuthorizationUrl(config, {
      redirect_uri: login.redirectUri,
      scope: this.scopes.join(' '),
      response_type: 'code',
      code_challenge: login.codeChallenge,
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
      login_hint: login.loginHint,
    });
  }

  /** Exchanges the callback's code and checks the ID token; the person it names (email from the ID token or userinfo). */
  async finish(config: Client.Configuration, callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<Person> {
    const client = await openid();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state, expectedNonce: checks.nonce, pkceCodeVerifier: checks.codeVerifier, idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw Errors.badGateway('the identity provider answered without an ID token');
    let email = claims['email'];
    let verified = claims['email_verified'];
    let name = claims['name'];
    // Many providers keep profile claims out of the ID token: then userinfo has them.
    if (typeof email !== 'string') {
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = info.email;
      verified = info.email_verified;
      name ??= info.name;
    }
    if (typeof email !== 'string' || email === '') throw unauthorized('the identity provider named no email for this person (scope email)', 'sso_no_email');
    if (verified === false) throw unauthorized(`the identity provider has not verified ${email}`, 'sso_email_unverified');
    const person: Person = { subject: claims.sub, email: email.toLowerCase() };
    if (typeof name === 'string' && name !== '') person.name = name;
    return person;
  }
}

async function discover(settings: ProviderSettings, timeoutMs: number): Promise<Client.Configuration> {
  const client = await openid();
  const issuer = new URL(settings.issuer);
  const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  const auth = settings.clientSecret === undefined ? client.None() : client.ClientSecretBasic(settings.clientSecret);
  return client.discovery(issuer, settings.clientId, settings.clientSecret, auth, {
    timeout: Math.ceil(timeoutMs / 1000),
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
  });
}

export function unauthorized(message: string, code: string): GatewayError {
  return new GatewayError({ status: 401, message, code });
}

/**
 * An openid-client failure as the answer to the browser: the provider refusing (its `error`), a
 * token it sent that fails a check, or a provider that cannot be reached. Messages name the rule,
 * never a token or secret.
 */
export function oidcFailure(e: unknown): GatewayError {
  if (e instanceof GatewayError) return e;
  const client = library;
  if (!client) return Errors.badGateway('the identity provider cannot be reached');
  if (e instanceof client.AuthorizationResponseError) {
    return new GatewayError({ status: 403, message: `the identity provider refused the login: ${e.error}`, code: 'sso_refused' });
  }
  if (e instanceof client.ResponseBodyError) {
    return new GatewayError({ status: 400, message: `the identity provider refused the code exchange: ${e.error}`, code: 'sso_code_refused' });
  }
  if (e instanceof client.ClientError) {
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    if (e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || e.code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
      return Errors.badGateway(`the identity provider answered unexpectedly (${e.message})`);
    }
    return unauthorized(`the identity provider's answer failed a check: ${e.message}${cause}`, 'sso_token_rejected');
  }
  return Errors.badGateway(`the identity provider cannot be reached (${e instanceof Error ? e.message : 'error'})`);
}
