/**
 * admin.configs: stored, versioned route configs (issue 8). Routes under /v1/configs (routes.ts).
 *
 * A string `x-gw-config` is a stored config's id or slug: config.headers passes it on as a string,
 * and this plugin replaces it with the config's latest version, with the request's direct-mode
 * header fields beneath it, exactly as config.headers does for a JSON config (core/config/headers.ts).
 * The config then goes through the same validation as any other (schema and plugin rules).
 * Stored configs are cached in memory (cache.ts); a write on any instance clears every instance's cache.
 * A request that names no config at all takes its caller's default config (default-config.ts): the
 * API key's `default_config_id`, else its workspace's.
 */
import {
  Services, DEFAULT_JSON_MAX_DEPTH, MAX_TIMER_MS, Errors, HeaderConfigs, Stage, Type, changesIn, type Plugin, type PluginApi, type RawConfig, type RequestContext, type Static,
} from '../../../core/index.js';
import { StoredConfigCache, type StoredConfig } from './cache.js';
import { StoredConfigIdKey, StoredConfigsService } from './contract.js';
import { defaultConfigGone, defaultConfigOf, storedConfigs, type DefaultConfigChoice } from './default-config.js';
import { DirectoryService, type Directory } from '../workspaces/contract.js';
import { ConfigRepo } from './repo.js';
import { organisationOf, registerRoutes } from './routes.js';

type Done = (error: Error | null, config?: RawConfig) => void;

const Options = Type.Object({
  /** How long a stored config is served from memory (bounds how long another instance's change takes to show). */
  cacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /** How long an unknown config id is remembered as unknown. */
  negativeCacheTtlMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 5_000 }),
  cacheMaxEntries: Type.Integer({ minimum: 0, default: 10_000 }),
  /** Largest stored config, as JSON. */
  maxConfigBytes: Type.Integer({ minimum: 1024, default: 256 * 1024 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class ConfigsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'admin.configs',
    description: 'Stored, versioned route configs: /v1/configs, and their ids in x-gw-config',
    requires: [Services.Records],
    provides: [StoredConfigsService],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const repo = new ConfigRepo(api.services.get(Services.Records));
    await repo.init();
    const headerConfigs = new HeaderConfigs(api.configKeys, api.options.cacheMaxEntries, api.settings.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH);
    const cache = new StoredConfigCache(repo, {
      ttlMs: api.options.cacheTtlMs,
      negativeTtlMs: api.options.negativeCacheTtlMs,
      maxEntries: api.options.cacheMaxEntries,
    });
    cache.follow(changesIn(api.services));
    api.services.provide(StoredConfigsService, storedConfigs(cache));
    registerRoutes(api.registries.routes, { configKeys: api.configKeys, repo, cache, services: api.services, maxConfigBytes: api.options.maxConfigBytes });

    // After config.headers (CONFIG), before integrations are resolved (CONFIG_REFERENCES).
    // A callback tap: anything but a config id goes on synchronously, a cached config too.
    api.hooks.resolveConfig.tapAsync({ name: api.id, stage: Stage.STORED_CONFIG }, (config: RawConfig, ctx: RequestContext, done: Done) => {
      if (config === undefined && ctx.principal) {
        useDefault(ctx, cache, headerConfigs, api.services.find(DirectoryService)).then((resolved) => done(null, resolved), (e: unknown) => done(e as Error));
        return;
      }
      if (typeof config !== 'string') return done(null, config);
      const found = cache.get(organisationOf(ctx.principal), config);
      if (found instanceof Promise) {
        found.then((f) => use(f, config, ctx, headerConfigs)).then((resolved) => done(null, resolved), (e: unknown) => done(e as Error));
        return;
      }
      let resolved: RawConfig;
      try {
        resolved = use(found, config, ctx, headerConfigs);
      } catch (e) {
        return done(e as Error);
      }
      done(null, resolved);
    });
  }
}

/** The caller's default config when the request named none; undefined (no config) when the caller has none. */
async function useDefault(ctx: RequestContext, cache: StoredConfigCache, headerConfigs: HeaderConfigs, directory: Directory | undefined): Promise<RawConfig> {
  const choice: DefaultConfigChoice | undefined = await defaultConfigOf(ctx.principal, directory);
  if (!choice) return undefined;
  const stored = await cache.get(organisationOf(ctx.principal), choice.id);
  if (!stored) throw defaultConfigGone(choice);
  return use(stored, choice.id, ctx, headerConfigs);
}

function use(stored: StoredConfig | null, ref: string, ctx: RequestContext, headerConfigs: HeaderConfigs): Record<string, unknown> {
  if (!stored) throw Errors.invalidConfig('', `no stored config "${ref}" (x-gw-config is neither a JSON object nor a known config id)`);
  const workspaceId = ctx.principal?.workspaceId;
  if (stored.workspaceId !== undefined && workspaceId !== undefined && stored.workspaceId !== workspaceId) {
    throw Errors.forbidden(`config "${ref}" belongs to another workspace than the API key's (${workspaceId})`);
  }
  // Logs and analytics group by the canonical id, whether the client sent the id or the slug.
  ctx.values.set(StoredConfigIdKey, stored.id);
  return headerConfigs.beneath(headerConfigs.fields(ctx.request.headers, true), stored.config);
}
