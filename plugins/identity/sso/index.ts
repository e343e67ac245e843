/**
 * identity.sso: people sign in through their organisation's OpenID Connect provider (Okta, Entra
 * ID, Google ...) and get a session that control-plane routes accept like a key, with the person's
 * role (spec §2.3: SSO email domains, `session_settings.max_session_ttl`; env `OIDC_CUSTOM_SCOPES`).
 *   settings-routes.ts  /v1/organisation/sso and its email domains
 *   login-routes.ts     /v1/sso/login, /v1/sso/callback, /v1/sso/logout
 *   session-auth.ts     the session cookie → the person's principal (person-principal.ts)
 * Logins in flight and sessions live in the record store, so any instance of a fleet finishes a
 * login or honours (and ends) a session. People come from admin.workspaces' Directory service,
 * looked up on use: a gateway composed without admin.workspaces boots, and answers SSO requests
 * with 500 plugin_not_loaded naming it.
 */
import {
  Services, Stage, serviceOnUse, systemClock, Type,
  type Clock, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { DirectoryService, OrgSettingsService } from '../../admin/workspaces/contract.js';
import { loginRoutes } from './login-routes.js';
import { LoginStates } from './logins.js';
import { MIGRATIONS } from './migrations.js';
import { BASE_SCOPES, OidcClients } from './oidc.js';
import { sessionAuth } from './session-auth.js';
import { SessionStore } from './sessions.js';
import { settingsRoutes } from './settings-routes.js';
import { SsoRepo } from './sso-repo.js';

const DAY_SECONDS = 86_400;

const Options = Type.Object({
  /** The gateway's public base URL, e.g. https://gw.example.com: the callback URL registered at the provider. Default: from each request's Host. */
  publicUrl: Type.Optional(Type.String({ pattern: '^https?://', errorMessage: 'must be an http(s) URL' })),
  /** A session's lifetime when the organisation's session_settings.max_session_ttl is not shorter. */
  sessionTtlSeconds: Type.Integer({ minimum: 900, maximum: 30 * DAY_SECONDS, default: DAY_SECONDS }),
  /**
   * Scopes of a person acting in a workspace (members, managers and workspace admins; organisation
   * owners and admins have every scope): those of an auto-created workspace-user key, plus reading
   * logs and analytics, which the visibility settings then narrow.
   */
  memberScopes: Type.Array(Type.String({ minLength: 1 }), {
    default: ['api_keys.read', 'api_keys.rotate', 'workspaces.read', 'workspace_users.read', 'logs.list', 'logs.view', 'analytics.view'],
  }),
  /** Time-out of each call to the identity provider (discovery, token, userinfo, keys). */
  providerTimeoutMs: Type.Integer({ minimum: 1000, maximum: 120_000, default: 10_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class SsoPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'identity.sso',
    description: 'Single sign-on with OpenID Connect: organisation providers and email domains, /v1/sso login, sessions',
    requires: [Services.Records, Services.SecretBox],
    dependsOn: ['auth.api-key'],
    options: Options,
  };

  /** `clock` is for tests (session ages); the loader constructs plugins without arguments. */
  constructor(private readonly clock: Clock = systemClock) {}

  async apply(api: PluginApi<Options>): Promise<void> {
    const store = api.services.get(Services.Records);
    const box = api.services.get(Services.SecretBox);
    await store.migrate('identity.sso', MIGRATIONS);
    const repo = new SsoRepo(store);
    const sessions = new SessionStore(store, this.clock);
    const clients = new OidcClients([...BASE_SCOPES, ...customScopes(api.settings.env['OIDC_CUSTOM_SCOPES'])], api.options.providerTimeoutMs);
    const needsPeople = 'single sign-on needs the people of admin.workspaces: load admin.workspaces';
    const directory = serviceOnUse(api.services, DirectoryService, needsPeople);
    const settings = serviceOnUse(api.services, OrgSettingsService, needsPeople);

    api.hooks.onRequest.tapPromise({ name: api.id, stage: Stage.BEFORE_AUTH }, sessionAuth({
      sessions, directory, settings, clock: this.clock, memberScopes: api.options.memberScopes,
    }));
    const routes = [
      ...settingsRoutes({ repo, box, clients, clock: this.clock }),
      ...loginRoutes({
        repo, box, clients, sessions, directory, settings, clock: this.clock,
        logins: new LoginStates(store, box, this.clock),
        publicUrl: api.options.publicUrl,
        sessionTtlSeconds: api.options.sessionTtlSeconds,
      }),
    ];
    for (const route of routes) api.registries.routes.add(route);
  }
}

/** `OIDC_CUSTOM_SCOPES=groups,offline_access` → ['groups', 'offline_access'] (comma- or space-separated). */
export function customScopes(value: string | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(/[\s,]+/).filter((s) => s !== '' && !(BASE_SCOPES as readonly string[]).includes(s)))];
}
