/**
 * security.secret-references: secrets kept in an external secret manager (HashiCorp Vault KV v2,
 * AWS Secrets Manager, Google Cloud Secret Manager) or in the gateway's environment, named by slug
 * where a secret is needed (integrations' `secret_mappings`), fetched at request time.
 *
 * Routes under /v1/secret-references (routes.ts; scopes `secret_references.*`). The manager's own
 * credentials (`manager_config` secrets) are sealed with the SecretBox, bound to the reference id,
 * and never answered. Other plugins resolve references through `SecretReferencesService`
 * (contract.ts, resolver.ts): workspace checked on every call, values cached for `cacheTtlMs`, every
 * manager call through the shared transport (outbound host rules apply) with a time-out.
 */
import {
  changesIn, MAX_TIMER_MS, ServiceAccountTokens, Services, Type, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { DirectoryService } from '../../admin/workspaces/contract.js';
import { SecretReferenceCatalogue } from './catalogue.js';
import { SecretReferencesService } from './contract.js';
import { SecretReferenceRepo } from './repo.js';
import { SecretResolver } from './resolver.js';
import { registerRoutes } from './routes.js';

const Options = Type.Object({
  /** How long a fetched value is kept in memory; 0: fetched on every use. */
  cacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 60_000 }),
  /** Upper bound of one call to a secret manager (a token exchange included). */
  timeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** Environment variables the `env` manager (and a bare variable name) may read must start with this. */
  envPrefix: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z_][A-Za-z0-9_]*$', default: 'GW_SECRET_REF_' }),
  /** How often the in-memory references are re-read (other gateway instances' changes); 0: never. */
  reloadIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** Exchange a new Google access token this long before the cached one expires. */
  tokenRefreshMarginMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 300_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class SecretReferencesPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'security.secret-references',
    description: 'Secret references: /v1/secret-references (Vault, AWS Secrets Manager, GCP Secret Manager, env), resolved at request time',
    requires: [Services.Records, Services.SecretBox], provides: [SecretReferencesService], dependsOn: ['security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const { services, options } = api;
    const repo = new SecretReferenceRepo(services.get(Services.Records));
    await repo.init();
    const catalogue = new SecretReferenceCatalogue(repo);
    await catalogue.reload();
    catalogue.follow(changesIn(services), (e) => api.logger.warn({ err: e }, 'reloading secret references failed'));
    const box = services.get(Services.SecretBox);
    const transport = services.get(Services.Transport);

    const tokens = new ServiceAccountTokens(transport, {
      owner: 'secret-references',
      privateKeyPath: 'manager_config.service_account_json.private_key',
      refreshMarginMs: options.tokenRefreshMarginMs,
      maxEntries: 1000,
      exchangeTimeoutMs: options.timeoutMs,
    });
    const resolver = new SecretResolver(
      { catalogue, box, transport, tokens, env: api.settings.env },
      { cacheTtlMs: options.cacheTtlMs, timeoutMs: options.timeoutMs, envPrefix: options.envPrefix },
    );
    services.provide(SecretReferencesService, resolver);

    registerRoutes(api.registries.routes, {
      repo, catalogue, box, envPrefix: options.envPrefix,
      // Looked up on use: the workspaces plugin may be applied after this one, or not at all.
      directory: () => services.find(DirectoryService),
    });

    if (options.reloadIntervalMs > 0) {
      this.#timer = setInterval(() => {
        catalogue.reload().catch((e: unknown) => api.logger.warn({ err: e }, 'reloading secret references failed'));
      }, options.reloadIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
