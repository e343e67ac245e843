/**
 * Boot: one container, one set of hooks and registries, the plugins applied in dependency order,
 * then everything frozen for the run phase: a later tap, registration or route throws.
 */
import { Changes } from './changes.js';
import { createRootContainer, type DependencyContainer } from './di.js';
import { WorkLeases } from './leases.js';
import { Services } from './services.js';
import { ServiceRegistry } from './service-registry.js';
import { createHooks, type Hooks } from './hooks.js';
import { HookTaps } from './hook-taps.js';
import { describeGateway, type GatewayDescription } from './describe.js';
import { createRegistries, freezeRegistries, type Registries } from './registries.js';
import { loadPlugins, orderPlugins, PluginLoadError, type LoadedPlugin, type ResolvedEntry } from './loader.js';
import { ConfigKeys } from './config/keys.js';
import { Kernel } from './kernel.js';
import type { MissingPluginHints } from './missing-plugin.js';
import { UndiciTransport } from './transport.js';
import { OutboundPolicy } from './outbound-policy.js';
import type { Logger } from './logger.js';
import type { GatewaySettings } from './settings.js';
import type { Transport } from './types.js';

export interface BootOptions {
  plugins: ResolvedEntry[];
  settings: GatewaySettings;
  logger: Logger;
  transport?: Transport;
  /** What the host adds after the plugins and before everything freezes (its health routes). */
  setup?: (registries: Registries) => void;
  /** Which plugin fills each role the kernel relies on, to name it in errors when it is missing. */
  missingPluginHints?: MissingPluginHints;
}

export interface Runtime {
  readonly kernel: Kernel;
  readonly hooks: Hooks;
  readonly registries: Registries;
  readonly container: DependencyContainer;
  /** The gateway's services by typed key (`runtime.services.get(Services.Records)`). */
  readonly services: ServiceRegistry;
  readonly plugins: readonly LoadedPlugin[];
  readonly settings: GatewaySettings;
  /** Hooks with their taps, registries, plugins and their services (`--describe`). */
  describe(): GatewayDescription;
  close(): Promise<void>;
}

export async function boot(options: BootOptions): Promise<Runtime> {
  const container = createRootContainer();
  const hooks = createHooks();
  const registries = createRegistries();
  const taps = new HookTaps(hooks);
  const transport = options.transport ?? new UndiciTransport({ policy: new OutboundPolicy(options.settings.outbound) });
  const services = new ServiceRegistry(container);
  services.provide(Services.Settings, options.settings);
  services.provide(Services.Logger, options.logger);
  services.provide(Services.Transport, transport);
  services.provide(Services.Registries, registries);
  services.provide(Services.Changes, new Changes((error, topic) => options.logger.error({ err: error, topic }, 'a change listener failed')));
  // Made on first use: the record store it needs comes from a plugin.
  services.provideLazily(Services.WorkLeases, () => new WorkLeases(services.get(Services.Records, 'work leases')));
  // Ordered once, with the services the kernel provides before any plugin loads.
  const ordered = orderPlugins(options.plugins, new Set([...services.names(), Services.Kernel.name, Services.Description.name]));
  const configKeys = assembleConfig(ordered, options, registries);
  const kernel = new Kernel(hooks, registries, options.logger, configKeys, options.missingPluginHints);
  services.provide(Services.Kernel, kernel);

  let loaded: readonly LoadedPlugin[] = [];
  const describe = () => describeGateway(taps, registries, loaded.map((p) => p.manifest));
  services.provide(Services.Description, describe);

  const plugins = await loadPlugins(ordered, {
    container,
    services,
    hooks: (pluginId) => taps.viewFor(pluginId),
    registries,
    settings: options.settings,
    logger: options.logger,
    configKeys,
  });

  loaded = plugins;
  options.setup?.(registries);

  await hooks.ready.promise();
  taps.freeze();
  freezeRegistries(registries);
  services.freeze();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await hooks.close.promise().catch((e) => options.logger.error({ err: e }, 'close hook failed'));
      for (const plugin of [...plugins].reverse()) {
        try {
          await plugin.instance.close?.();
        } catch (e) {
          options.logger.error({ err: e, plugin: plugin.id }, 'plugin close failed');
        }
      }
      await transport.close().catch(() => undefined);
    })();
    return closing;
  };
  return Object.freeze({ kernel, hooks, registries, container, services, plugins, settings: options.settings, describe, close });
}

/** The route config from the plugins' manifests, before any plugin applies (so each may use it in apply). */
function assembleConfig(ordered: readonly ResolvedEntry[], options: BootOptions, registries: Registries): ConfigKeys {
  const contributions = ordered.flatMap(({ cls }) => cls.manifest.config ? [{ plugin: cls.manifest.id, config: cls.manifest.config }] : []);
  try {
    return new ConfigKeys(contributions, registries, options.missingPluginHints);
  } catch (e) {
    throw new PluginLoadError((e as Error).message);
  }
}
