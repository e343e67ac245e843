/**
 * agents.mcp-servers: the registry of upstream MCP servers (issue 21).
 *
 * Routes under /v1/mcp-servers (routes.ts). Upstream secrets (a bearer token, header values, an
 * OAuth2 client secret) are sealed with the SecretBox (AES-256-GCM, bound to the server id) and
 * answered masked. Every server is held in memory; other instances' changes arrive on the
 * invalidation bus or at the periodic reload. The MCP gateway (agents.mcp-gateway) reads servers
 * through `McpServersService` (contract.ts): which server a caller may use, and the headers that
 * authenticate the gateway to it (secret mappings resolved for the caller's workspace, OAuth2
 * client-credentials tokens fetched through the shared transport and cached).
 */
import { Services, MAX_TIMER_MS, Type, changesIn, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { envSecretReferences, secretReferencesOr } from '../../security/secret-references/contract.js';
import { ControlPlaneServices } from './access.js';
import { McpServerCatalogue } from './catalogue.js';
import { McpServersService } from './contract.js';
import { McpServerRepo } from './repo.js';
import { registerRoutes } from './routes.js';
import { ServerSecrets } from './secrets.js';
import { createService } from './service.js';
import { ClientCredentialTokens } from './tokens.js';

const Options = Type.Object({
  /** How often the in-memory servers are re-read (other gateway instances' changes); 0: never. */
  reloadIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** How long a resolved secret mapping is kept before it is resolved again. */
  secretTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 60_000 }),
  /** Environment variables a secret mapping may name (without a SecretReferences plugin) must start with this. */
  secretEnvPrefix: Type.String({ minLength: 1, default: 'GW_SECRET_REF_' }),
  /** An OAuth2 token is requested again this long before it expires (at most half its life). */
  tokenRefreshMarginMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 60_000 }),
  /** Upper bound of one token request. */
  tokenTimeoutMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** Lifetime assumed for a token answered without `expires_in`. */
  tokenDefaultTtlMs: Type.Integer({ minimum: 1000, maximum: MAX_TIMER_MS, default: 300_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class McpServersPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'agents.mcp-servers',
    description: 'Registered upstream MCP servers: /v1/mcp-servers, sealed upstream credentials, OAuth2 client-credentials tokens',
    requires: [Services.Records, Services.SecretBox, Services.Transport], provides: [McpServersService], dependsOn: ['security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const { services, options } = api;
    const repo = new McpServerRepo(services.get(Services.Records));
    await repo.init();
    const catalogue = new McpServerCatalogue(repo);
    await catalogue.reload();
    catalogue.follow(changesIn(services), (e) => api.logger.warn({ err: e }, 'reloading MCP servers failed'));
    const box = services.get(Services.SecretBox);

    // A SecretReferences plugin applied later is found on use; without one, GW_SECRET_REF_* variables.
    const references = secretReferencesOr(services, envSecretReferences(api.settings.env, options.secretEnvPrefix));
    const tokens = new ClientCredentialTokens(services.get(Services.Transport), {
      refreshMarginMs: options.tokenRefreshMarginMs, exchangeTimeoutMs: options.tokenTimeoutMs, defaultTtlMs: options.tokenDefaultTtlMs,
    });
    // A changed or deleted server's tokens are of no further use.
    catalogue.onChange((id) => tokens.forget(id));

    registerRoutes(api.registries.routes, {
      repo, catalogue, box,
      services: new ControlPlaneServices(services),
      envPrefix: () => (references.external() ? undefined : options.secretEnvPrefix),
    });
    services.provide(McpServersService, createService(catalogue, new ServerSecrets(box, references, options.secretTtlMs), tokens));

    if (options.reloadIntervalMs > 0) {
      this.#timer = setInterval(() => {
        catalogue.reload().catch((e: unknown) => api.logger.warn({ err: e }, 'reloading MCP servers failed'));
      }, options.reloadIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
