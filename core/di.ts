/**
 * reflect-metadata and tsyringe enter the codebase here. One root container per gateway
 * (a child of tsyringe's global one), filled at boot; nothing is resolved per request.
 */
import 'reflect-metadata';
import { container as globalContainer, inject, injectable, singleton, type DependencyContainer, type InjectionToken } from 'tsyringe';

export { inject, injectable, singleton };
export type { DependencyContainer, InjectionToken };

/** Well-known services. A plugin that provides one registers it under its token. */
export const Tokens = {
  Kernel: Symbol.for('gw.Kernel'),
  Settings: Symbol.for('gw.Settings'),
  Logger: Symbol.for('gw.Logger'),
  Transport: Symbol.for('gw.Transport'),
  Registries: Symbol.for('gw.Registries'),
  /** The per-plugin options object, available while a plugin is constructed. */
  PluginOptions: Symbol.for('gw.PluginOptions'),
  /** Relational record store (SQLite embedded, PostgreSQL for several instances). */
  RecordStore: Symbol.for('gw.RecordStore'),
  /** Shared counters and small state (memory, or Redis for several instances). */
  StateStore: Symbol.for('gw.StateStore'),
  /** Response-cache entries (memory, or Redis for several instances). */
  CacheStore: Symbol.for('gw.CacheStore'),
  /** Stored files (uploads, batch input and output). */
  FileStore: Symbol.for('gw.FileStore'),
  /** Encrypts small secrets at rest (stored credentials, batch configs). */
  SecretBox: Symbol.for('gw.SecretBox'),
  /** Gateway API keys: lookup by secret. */
  KeyStore: Symbol.for('gw.KeyStore'),
  /** The invalidation bus (core/changes.ts): registered at boot, relayed by Redis when GW_REDIS_URL is set. */
  Changes: Symbol.for('gw.Changes'),
  /** Work leases (core/leases.ts) on the record store: one instance does each piece of background work. */
  WorkLeases: Symbol.for('gw.WorkLeases'),
  /** `() => GatewayDescription` (core/describe.ts): hooks, taps, registries and plugins of this gateway. */
  Description: Symbol.for('gw.Description'),
} as const;

export function createRootContainer(): DependencyContainer {
  return globalContainer.createChildContainer();
}
