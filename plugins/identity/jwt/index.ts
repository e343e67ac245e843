/**
 * identity.jwt: organisations accept their identity provider's JWTs as callers on protected routes
 * (coding agents, internal tools). Settings per organisation at /v1/organisation/sso/jwt
 * (routes.ts), kept in the record store and in memory (settings-store.ts); the identity rule on
 * requests without `x-gw-api-key` (caller.ts); verification with jose against the organisation's
 * key set (verify.ts, key-sets.ts); the caller acts as a person of the organisation (person.ts),
 * and limits may group by its claims (`jwt.<claim>`, core/policies/conditions.ts).
 */
import {
  BoundedInteger, MAX_TIMER_MS, OutboundPolicy, Services, Stage, Type, changesIn, serviceOnUse,
  type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { CallerIdentity } from './caller.js';
import { KeySets } from './key-sets.js';
import { MIGRATIONS } from './migrations.js';
import { PersonPrincipals } from './person.js';
import { DirectoryService } from '../../admin/workspaces/contract.js';
import { jwtSettingsRoutes } from './routes.js';
import { JwtSettingsStore } from './settings-store.js';
import { JwtVerifier } from './verify.js';

const Options = Type.Object({
  /** Leeway for `exp` and `nbf` against clocks that disagree a little; bounded so an expired token stays expired. */
  clockToleranceSeconds: BoundedInteger(0, 300, 'seconds', { default: 60 }),
  /** How long a fetched key set is used before it is fetched again. */
  jwksCacheMaxAgeMs: Type.Integer({ minimum: 1000, maximum: MAX_TIMER_MS, default: 600_000 }),
  /** After a fetch, how long a token with an unknown `kid` waits before it may make the key set be fetched again. */
  jwksCooldownMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  jwksTimeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 5_000 }),
  /** How long who a person is and where they act is remembered (0: read every request). */
  personCacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  personCacheMaxEntries: Type.Integer({ minimum: 1, default: 10_000 }),
  /** Scopes of a JWT caller acting in a workspace (what a default workspace-user key gets). */
  memberScopes: Type.Array(Type.String({ minLength: 1 }), {
    default: ['api_keys.read', 'api_keys.rotate', 'workspaces.read', 'workspace_users.read'],
  }),
  /** How often the settings are re-read, to see changes made by other instances; 0: never. */
  refreshIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class JwtIdentityPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'identity.jwt',
    description: 'Callers named by an identity provider\'s JWT (Authorization: Bearer): /v1/organisation/sso/jwt',
    // admin.workspaces (people) and auth.api-key (gateway keys as bearers) are looked up per
    // request, not depended on: a gateway composed without them still boots.
    requires: [Services.Records],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const o = api.options;
    const records = api.services.get(Services.Records);
    await records.migrate('identity.jwt', MIGRATIONS);
    const settings = new JwtSettingsStore(records);
    await settings.load();
    settings.follow(changesIn(api.services), (e) => api.logger.error({ err: e }, 'reloading JWT settings failed'));

    const keySets = new KeySets(api.services.get(Services.Transport), {
      cacheMaxAgeMs: o.jwksCacheMaxAgeMs, cooldownMs: o.jwksCooldownMs, timeoutMs: o.jwksTimeoutMs,
    });
    const verifier = new JwtVerifier(settings, keySets, o.clockToleranceSeconds);
    const directory = serviceOnUse(api.services, DirectoryService, 'JWT callers are people of an organisation: load admin.workspaces');
    const people = new PersonPrincipals(directory, o.memberScopes, o.personCacheTtlMs, o.personCacheMaxEntries);
    const identity = new CallerIdentity(verifier, people, () => api.services.find(Services.KeyStore));
    api.hooks.onRequest.tapPromise({ name: api.id, stage: Stage.BEFORE_AUTH }, (ctx) => identity.identify(ctx));

    for (const route of jwtSettingsRoutes(settings, new OutboundPolicy(api.settings.outbound))) api.registries.routes.add(route);

    if (o.refreshIntervalMs > 0) {
      this.#timer = setInterval(() => {
        settings.load().catch((e) => api.logger.error({ err: e }, 'reloading JWT settings failed'));
      }, o.refreshIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
