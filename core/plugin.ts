/**
 * The plugin contract. A plugin is a class with a static manifest and an `apply` method that taps
 * hooks and fills registries. Options are validated against the manifest's schema at boot.
 */
import type { TSchema, Static } from './schema.js';
import type { ConfigKeys } from './config/keys.js';
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
  /** The route-config keys this plugin owns (reads from a config node): see `PluginConfig`. */
  readonly config?: PluginConfig;
}

/** Where a rule found a problem, relative to the node (`retry.attempts`), and the rule broken. */
export type ConfigReport = (path: string, rule: string) => void;

/** What a plugin's config rules may consult: the registries, and which plugin would add a missing entry. */
export interface ConfigRuleContext {
  readonly registries: Registries;
  /** The plugin that registers `name` in `registry` when loaded (from the host's hints), if known. */
  pluginFor(registry: keyof Registries, name: string): string | undefined;
}

/**
 * The keys a plugin adds to a route-config node. The kernel assembles the config schema, the
 * `x-gw-<field>` header fields, the credential keys and the key groups of every loaded plugin at
 * boot; a config naming a key no loaded plugin owns is refused.
 */
export interface PluginConfig {
  /** TypeBox object schema of the keys (each optional on a node): `Type.Object({ retry: ... })`. */
  readonly keys: TSchema;
  /** Keys added to the `strategy` object (`conditions` ...), a TypeBox object schema. */
  readonly strategy?: TSchema;
  /**
   * Keys a client may set with an `x-gw-<key>` header (`_` as `-`), or `true` for all; the
   * header's wire kind (number, comma list, JSON ...) follows the key's schema.
   */
  readonly headers?: true | readonly string[];
  /**
   * Keys bound to the provider they were given for: a child target naming another provider does
   * not inherit them, and they identify the upstream (cache, breaker).
   */
  readonly credentials?: readonly string[];
  /** Credentials that are secrets: masked in answers, sealed at rest, refused in stored configs. */
  readonly secrets?: readonly string[];
  /** Keys that place a node in its tree (`weight`): never inherited by child targets. */
  readonly nodeOnly?: readonly string[];
  /** Key groups of §2.1: a root config is valid when all keys of one group (of any plugin) are set. */
  readonly groups?: readonly (readonly string[])[];
  /** Values checked by hand instead of by their schema (richer messages): key → check. */
  readonly values?: Readonly<Record<string, (value: unknown, report: ConfigReport) => void>>;
  /**
   * Rules across keys, run on each node that sets one of this plugin's keys (or `strategy`, for a
   * plugin adding strategy keys) once the node's keys have the right types.
   */
  rules?(node: Readonly<Record<string, unknown>>, report: ConfigReport, context: ConfigRuleContext): void;
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
  /** The route config as assembled from every loaded plugin's `config` (check, headers, credentials). */
  readonly configKeys: ConfigKeys;
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
