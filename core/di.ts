/**
 * reflect-metadata and tsyringe enter the codebase here (through vendor/tsyringe.ts). One root container per gateway
 * (a child of tsyringe's global one), filled at boot; nothing is resolved per request. Services
 * are registered under their keys' tokens (core/services.ts, core/service-registry.ts).
 */
import { container as globalContainer, inject, injectable, singleton, type DependencyContainer, type InjectionToken } from './vendor/tsyringe.js';

export { inject, injectable, singleton };
export type { DependencyContainer, InjectionToken };

/** The per-plugin options object, injectable while a plugin is constructed. */
export const PluginOptionsToken: unique symbol = Symbol('gw.PluginOptions');

export function createRootContainer(): DependencyContainer {
  return globalContainer.createChildContainer();
}
