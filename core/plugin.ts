/**
 * The plugin contract. A plugin is a class with a static manifest and an `apply` method that taps
 * hooks and fills registries. Options are validated against the manifest's schema at boot.
 */
import type { TSchema, Static } from './schema.js';
import type { PluginHooks } from './hooks.js';
import type { Registries } from './registries.js';
import type { DependencyContainer } from './di.js';
import type { Logger } from './logger.js';
import type { GatewaySettings } from './settings.js';
import type { ServiceKey } from './service-key.js';
import type { PluginServices } from './service-registry.js';

export interface PluginManifest<O extends TSchema = TSchema> {
  /** `<kind>.<name>`, e.g. `provider.openai`, `strategy.fallback`, `policy.retry`. */
  readonly id: string;
  readonly description?: string;
  /** Plugin ids that must be loaded (and are applied) before this one. */
  readonly dependsOn?: readonly string[];
  /**
   * Services this plugin implements (keys from `Services` or a family's contract file), each
   * registered in `apply` with `api.services.provide(key, value)`; plugins requiring them are applied after it.
   */
  readonly provides?: readonly ServiceKey<unknown>[];
  /** Services this plugin needs; the boot stops, naming the service and this plugin, when no loaded plugin provides one. */
  readonly requires?: readonly ServiceKey<unknown>[];
  /** TypeBox schema of the options; defaults are applied, then the options are frozen. */
  readonly options?: O;
}

export interface PluginApi<O = unknown> {
  readonly id: string;
  readonly hooks: PluginHooks;
  readonly registries: Registries;
  /** The gateway's services by typed key: `get` (required), `find` (optional), `provide`. */
  readonly services: PluginServices;
  readonly container: DependencyContainer;
  readonly options: O;
  readonly settings: GatewaySettings;
  readonly logger: Logger;
}

export interface Plugin<O = unknown> {
  apply(api: PluginApi<O>): void | Promise<void>;
  /** Release resources at shutdown (after in-flight requests finished). */
  close?(): void | Promise<void>;
}

export interface PluginClass<O = any> {
  readonly manifest: PluginManifest;
  new (...args: any[]): Plugin<O>;
}

/** A plugin as written inline, without a class. */
export interface PluginDefinition<S extends TSchema> extends PluginManifest<S> {
  apply(api: PluginApi<Static<S>>): void | Promise<void>;
  close?(): void | Promise<void>;
}

/** Builds a plugin class from a plain definition, for users who prefer objects to classes. */
export function definePlugin<S extends TSchema>(def: PluginDefinition<S>): PluginClass<Static<S>> {
  const { apply, close, ...manifest } = def;
  return class {
    static readonly manifest: PluginManifest = manifest;
    apply(api: PluginApi<Static<S>>) {
      return apply(api);
    }
    close() {
      return close?.();
    }
  };
}

/** How a gateway file names a plugin: a built-in id, a module path, or a class, with options. */
export type PluginEntry = string | PluginClass | { use: string | PluginClass; options?: unknown };
