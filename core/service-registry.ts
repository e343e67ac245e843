/**
 * The services of one gateway, by typed key. Values are also registered in the gateway's container
 * under each key's token, so constructor injection sees the same objects. Plugins reach the
 * registry through `api.services`, a view that knows which plugin asks (for the messages) and
 * refuses to provide a service its manifest does not declare (the loader orders plugins by what
 * they declare, so an undeclared provider could be applied after the plugins that need it).
 */
import type { DependencyContainer } from './di.js';
import { Errors } from './errors.js';
import { AlreadyRunningError } from './hook-taps.js';
import type { ServiceKey } from './service-key.js';

/** What a plugin sees of the services (`api.services`). */
export interface PluginServices {
  /** The service, or a boot error naming it and this plugin when nothing provides it. */
  get<T>(key: ServiceKey<T>): T;
  /** The service when a loaded plugin provides it, else undefined (an optional service). */
  find<T>(key: ServiceKey<T>): T | undefined;
  has(key: ServiceKey<unknown>): boolean;
  /** Registers this plugin's implementation; the key must be in its manifest `provides`. A later provider takes over. */
  provide<T>(key: ServiceKey<T>, value: T): void;
}

export class ServiceRegistry {
  readonly #values = new Map<ServiceKey<unknown>, unknown>();
  readonly #factories = new Map<ServiceKey<unknown>, () => unknown>();
  #frozen = false;

  constructor(private readonly container: DependencyContainer) {}

  provide<T>(key: ServiceKey<T>, value: T, by?: string): void {
    if (this.#frozen) throw new AlreadyRunningError(`service "${key.name}" cannot be provided`, by);
    this.#factories.delete(key);
    this.#values.set(key, value);
    this.container.register(key.token, { useValue: value });
  }

  /** A service made on first use (one that needs services plugins provide later). */
  provideLazily<T>(key: ServiceKey<T>, make: () => T): void {
    if (this.#frozen) throw new AlreadyRunningError(`service "${key.name}" cannot be provided`);
    this.#values.delete(key);
    this.#factories.set(key, make);
    this.container.register(key.token, { useFactory: () => this.find(key) });
  }

  find<T>(key: ServiceKey<T>): T | undefined {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const make = this.#factories.get(key);
    if (!make) return undefined;
    const value = make() as T;
    this.#factories.delete(key);
    this.#values.set(key, value);
    return value;
  }

  has(key: ServiceKey<unknown>): boolean {
    return this.#values.has(key) || this.#factories.has(key);
  }

  get<T>(key: ServiceKey<T>, who = 'the gateway'): T {
    const value = this.find(key);
    if (value === undefined && !this.has(key)) {
      throw new Error(`${who} needs the service "${key.name}", which no loaded plugin provides`);
    }
    return value as T;
  }

  /** Once booted: a later `provide` throws, as a late registration or tap does. */
  freeze(): void {
    this.#frozen = true;
  }

  /** The names of the services registered so far. */
  names(): Set<string> {
    return new Set([...this.#values.keys(), ...this.#factories.keys()].map((key) => key.name));
  }

  /** The view `api.services` of plugin `pluginId`, which may provide `declared`. */
  viewFor(pluginId: string, declared: readonly ServiceKey<unknown>[]): PluginServices {
    const who = `plugin "${pluginId}"`;
    return {
      get: (key) => this.get(key, who),
      find: (key) => this.find(key),
      has: (key) => this.has(key),
      provide: (key, value) => {
        if (!declared.includes(key)) {
          throw new Error(`${who} provides the service "${key.name}" without declaring it: add it to its manifest "provides"`);
        }
        this.provide(key, value, pluginId);
      },
    };
  }
}

/**
 * For a service used only by some requests and provided by a plugin that may not be loaded: a
 * getter that answers 500 `plugin_not_loaded` with `hint` (what to load) when nothing provides it,
 * so the plugin still boots in a gateway composed without it.
 */
export function serviceOnUse<T>(services: Pick<PluginServices, 'find'>, key: ServiceKey<T>, hint: string): () => T {
  return () => services.find(key) ?? failNotLoaded(hint);
}

function failNotLoaded(hint: string): never {
  throw Errors.pluginNotLoaded(hint);
}
