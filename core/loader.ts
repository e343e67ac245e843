/**
 * The plugin loader: checks ids, dependencies and options, orders plugins so that each is applied
 * after the plugins it depends on, constructs them through the container and applies them.
 * Every failure is a boot error that names the plugin and what is wrong.
 */
import { parseOptions } from './schema.js';
import { PluginOptionsToken, type DependencyContainer } from './di.js';
import type { ServiceKey } from './service-key.js';
import type { ServiceRegistry } from './service-registry.js';
import type { Plugin, PluginClass, PluginManifest } from './plugin.js';
import type { PluginHooks } from './hooks.js';
import type { Registries } from './registries.js';
import type { GatewaySettings } from './settings.js';
import type { Logger } from './logger.js';
import type { ConfigKeys } from './config/keys.js';

export interface ResolvedEntry {
  cls: PluginClass;
  options?: unknown;
  /** Where the entry came from (built-in id or file path), for error messages. */
  source: string;
}

export interface LoadedPlugin {
  id: string;
  instance: Plugin;
  manifest: PluginManifest;
}

export class PluginLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginLoadError';
  }
}

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$/;

/**
 * `available`: the names of the services the gateway has before any plugin (the kernel's), which
 * plugins may require without a provider among them.
 */
export function orderPlugins(entries: ResolvedEntry[], available: ReadonlySet<string> = new Set()): ResolvedEntry[] {
  const byId = new Map<string, ResolvedEntry>();
  for (const entry of entries) {
    const manifest = entry.cls?.manifest;
    if (!manifest || typeof manifest.id !== 'string') {
      throw new PluginLoadError(`plugin from ${entry.source} has no static manifest with an id`);
    }
    if (!ID_PATTERN.test(manifest.id)) {
      throw new PluginLoadError(`plugin id "${manifest.id}" (from ${entry.source}) must look like <kind>.<name>`);
    }
    const dup = byId.get(manifest.id);
    if (dup) {
      throw new PluginLoadError(`duplicate plugin id "${manifest.id}" (from ${dup.source} and ${entry.source})`);
    }
    byId.set(manifest.id, entry);
  }
  for (const entry of entries) {
    for (const dep of entry.cls.manifest.dependsOn ?? []) {
      if (!byId.has(dep)) {
        throw new PluginLoadError(`plugin "${entry.cls.manifest.id}" depends on "${dep}", which is not loaded`);
      }
    }
  }
  checkServiceKeys(entries);
  const providers = providersByService(entries);
  for (const entry of entries) {
    for (const service of entry.cls.manifest.requires ?? []) {
      if (!providers.has(service.name) && !available.has(service.name)) {
        throw new PluginLoadError(`plugin "${entry.cls.manifest.id}" requires the service "${service.name}", which no loaded plugin provides`);
      }
    }
  }
  // Depth-first topological order, keeping the given order among independent plugins. A plugin
  // comes after the plugins it depends on and after every provider of the services it requires
  // (several providers keep their given order: a later one, such as Redis, takes over a token).
  const before = (entry: ResolvedEntry): ResolvedEntry[] => {
    const { manifest } = entry.cls;
    const services = (manifest.requires ?? []).flatMap((service) => (providers.get(service.name) ?? []).filter((p) => p !== entry));
    return [...(manifest.dependsOn ?? []).map((dep) => byId.get(dep)!), ...services];
  };
  const ordered: ResolvedEntry[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (entry: ResolvedEntry, chain: string[]) => {
    const id = entry.cls.manifest.id;
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      throw new PluginLoadError(`plugin dependency cycle: ${[...chain, id].join(' -> ')}`);
    }
    state.set(id, 'visiting');
    for (const dep of before(entry)) visit(dep, [...chain, id]);
    state.set(id, 'done');
    ordered.push(entry);
  };
  for (const entry of entries) visit(entry, []);
  return ordered;
}

/** Every `provides` / `requires` entry is a service key, and one name means one key. */
function checkServiceKeys(entries: readonly ResolvedEntry[]): void {
  const byName = new Map<string, { key: ServiceKey<unknown>; plugin: string }>();
  for (const entry of entries) {
    const { manifest } = entry.cls;
    for (const field of ['provides', 'requires'] as const) {
      const list: unknown = manifest[field];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw new PluginLoadError(`plugin "${manifest.id}": manifest "${field}" must be an array of service keys`);
      for (const key of list as unknown[]) {
        if (!isServiceKey(key)) {
          throw new PluginLoadError(`plugin "${manifest.id}": manifest "${field}" lists ${JSON.stringify(key)}, which is not a service key `
            + '(use one of Services.* or a key made with serviceKey())');
        }
        const known = byName.get(key.name);
        if (known && known.key !== key) {
          throw new PluginLoadError(`plugins "${known.plugin}" and "${manifest.id}" name two different services "${key.name}": `
            + 'import the service key from the module that defines it');
        }
        byName.set(key.name, { key, plugin: manifest.id });
      }
    }
  }
}

function isServiceKey(value: unknown): value is ServiceKey<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as ServiceKey<unknown>).name === 'string'
    && typeof (value as ServiceKey<unknown>).token === 'symbol';
}

function providersByService(entries: readonly ResolvedEntry[]): Map<string, ResolvedEntry[]> {
  const providers = new Map<string, ResolvedEntry[]>();
  for (const entry of entries) {
    for (const service of entry.cls.manifest.provides ?? []) {
      const list = providers.get(service.name) ?? [];
      list.push(entry);
      providers.set(service.name, list);
    }
  }
  return providers;
}

export interface LoadContext {
  container: DependencyContainer;
  /** The gateway's services, holding the kernel's already. */
  services: ServiceRegistry;
  /** One view for all plugins, or a view per plugin id (which records who taps what). */
  hooks: PluginHooks | ((pluginId: string) => PluginHooks);
  registries: Registries;
  settings: GatewaySettings;
  logger: Logger;
  configKeys: ConfigKeys;
}

/** Loads plugins already put in dependency order by `orderPlugins` (boot orders once, for config keys and loading). */
export async function loadPlugins(ordered: readonly ResolvedEntry[], ctx: LoadContext): Promise<LoadedPlugin[]> {
  // Validate every plugin's options before any plugin runs, so a bad file fails fast and whole.
  const prepared = ordered.map((entry) => {
    const { manifest } = entry.cls;
    let options: unknown = entry.options ?? {};
    if (manifest.options) {
      try {
        options = parseOptions(manifest.options, entry.options, `plugin "${manifest.id}"`);
      } catch (e) {
        throw new PluginLoadError((e as Error).message);
      }
    } else if (entry.options !== undefined && Object.keys(entry.options as object).length > 0) {
      throw new PluginLoadError(`plugin "${manifest.id}" takes no options`);
    }
    return { entry, options };
  });
  const loaded: LoadedPlugin[] = [];
  try {
    for (const { entry, options } of prepared) loaded.push(await construct(entry, options, ctx));
  } catch (e) {
    // Release what was already set up (open stores, timers) before reporting the boot error.
    for (const plugin of loaded.reverse()) await Promise.resolve(plugin.instance.close?.()).catch(() => undefined);
    throw e;
  }
  return loaded;
}

async function construct(entry: ResolvedEntry, options: unknown, ctx: LoadContext): Promise<LoadedPlugin> {
  const id = entry.cls.manifest.id;
  const scope = ctx.container.createChildContainer();
  scope.register(PluginOptionsToken, { useValue: options });
  let instance: Plugin;
  try {
    instance = scope.resolve(entry.cls);
  } catch (e) {
    throw new PluginLoadError(`plugin "${id}" could not be constructed: ${(e as Error).message}`);
  }
  const provides = entry.cls.manifest.provides ?? [];
  try {
    await instance.apply({
      id,
      hooks: typeof ctx.hooks === 'function' ? ctx.hooks(id) : ctx.hooks,
      registries: ctx.registries,
      services: ctx.services.viewFor(id, provides),
      container: ctx.container,
      options,
      settings: ctx.settings,
      logger: ctx.logger.child({ plugin: id }),
      configKeys: ctx.configKeys,
    });
    const missing = provides.find((key) => !ctx.services.has(key));
    if (missing) throw new Error(`it declares the service "${missing.name}" in "provides" but did not provide it (api.services.provide)`);
  } catch (e) {
    await Promise.resolve(instance.close?.()).catch(() => undefined);
    throw new PluginLoadError(`plugin "${id}" failed to apply: ${(e as Error).message}`);
  }
  return { id, instance, manifest: entry.cls.manifest };
}
