/**
 * admin.integrations: stored provider credentials (spec §1, §2.3; issue 8).
 *
 * Routes under /v1/integrations (routes.ts). Credentials (`key`, secret configuration fields) are
 * sealed with the SecretBox (AES-256-GCM, bound to the integration id) and answered masked.
 * A request names an integration as `provider: "@slug"` (x-gw-provider or any config node) or
 * `virtual_key` (x-gw-virtual-key, legacy): after the config headers and stored configs, this
 * plugin replaces those references with the stored provider and credentials (resolve.ts), from
 * memory: every integration is held in memory, credentials are opened on first use per revision.
 * Other plugins read integrations through `IntegrationsService` (contract.ts, service.ts).
 * A body's `model: "@slug/model"` names an integration and its model in one field (model-route.ts).
 */
import { Services, MAX_TIMER_MS, Stage, Type, changesIn, type Plugin, type PluginApi, type RawConfig, type RequestContext, type Static } from '../../../core/index.js';
import { ControlPlaneServices } from './access.js';
import { IntegrationCatalogue } from './catalogue.js';
import { CredentialCache } from './credentials.js';
import { routeByModel } from './model-route.js';
import { IntegrationRepo } from './repo.js';
import { callerOf, IntegrationResolver, referencesIntegration } from './resolve.js';
import { registerRoutes } from './routes.js';
import { IntegrationsService } from './contract.js';
import { envSecretReferences, secretReferencesOr, SecretReferencesService } from '../../security/secret-references/contract.js';
import { createService } from './service.js';

type Done = (error: Error | null, config?: RawConfig) => void;


const Options = Type.Object({
  /** How often the in-memory integrations are re-read (other gateway instances' changes); 0: never. */
  reloadIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** How long a resolved secret mapping is kept before it is resolved again. */
  secretTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 60_000 }),
  /** Environment variables a secret mapping may name must start with this (so no mapping can read GW_SECRET_KEY). */
  secretEnvPrefix: Type.String({ minLength: 1, default: 'GW_SECRET_REF_' }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class IntegrationsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'admin.integrations',
    description: 'Stored provider credentials: /v1/integrations, @slug and virtual keys in requests',
    requires: [Services.Records, Services.SecretBox], provides: [IntegrationsService], dependsOn: ['security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const { services, options } = api;
    const repo = new IntegrationRepo(services.get(Services.Records));
    await repo.init();
    const catalogue = new IntegrationCatalogue(repo);
    await catalogue.reload();
    catalogue.follow(changesIn(services), (e) => api.logger.warn({ err: e }, 'reloading integrations failed'));
    const box = services.get(Services.SecretBox);

    // A resolver provided by a later plugin is found on use.
    const secrets = secretReferencesOr(services, envSecretReferences(api.settings.env, options.secretEnvPrefix));
    const resolver = new IntegrationResolver(catalogue, new CredentialCache(box, secrets, options.secretTtlMs), api.configKeys);

    registerRoutes(api.registries.routes, {
      repo,
      catalogue,
      box,
      services: new ControlPlaneServices(services),
      rules: {
        providers: api.registries.providers,
        configKeys: api.configKeys,
        envPrefix: options.secretEnvPrefix,
        references: () => services.find(SecretReferencesService),
      },
    });
    services.provide(IntegrationsService, createService(catalogue));

    // `model: "@slug/model"`: after config.headers (CONFIG), before stored and default configs
    // (STORED_CONFIG), so that a request naming its integration this way takes no default config.
    api.hooks.resolveConfig.tap({ name: `${api.id}.model`, stage: Stage.BODY_ROUTE }, routeByModel);

    // After config.headers (CONFIG) and stored configs (STORED_CONFIG): the config is an object by now.
    // A callback tap: a config without references goes on synchronously (no promise, no microtask).
    api.hooks.resolveConfig.tapAsync({ name: api.id, stage: Stage.CONFIG_REFERENCES }, (config: RawConfig, ctx: RequestContext, done: Done) => {
      if (config === undefined || typeof config === 'string' || !referencesIntegration(config)) return done(null, config);
      resolver.resolve(config, callerOf(ctx.principal, ctx.body)).then((resolved) => done(null, resolved), (e: unknown) => done(e as Error));
    });

    if (options.reloadIntervalMs > 0) {
      this.#timer = setInterval(() => {
        catalogue.reload().catch((e: unknown) => api.logger.warn({ err: e }, 'reloading integrations failed'));
      }, options.reloadIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
