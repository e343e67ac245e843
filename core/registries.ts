/** The registries plugins fill at boot and the kernel reads per request. */
import { Registry } from './registry.js';
import { Router } from './router.js';
import type { EndpointDef, ProviderAdapter, Strategy } from './types.js';
import type { CacheMode } from './cache.js';
import type { GuardrailCheck } from './guardrails.js';

export interface Registries {
  readonly providers: Registry<ProviderAdapter>;
  readonly strategies: Registry<Strategy>;
  readonly checks: Registry<GuardrailCheck<any>>;
  readonly cacheModes: Registry<CacheMode>;
  readonly endpoints: Registry<EndpointDef>;
  readonly routes: Router;
  /** Readiness probes of backing stores; any false makes `/health` report `degraded`. */
  readonly health: Registry<HealthCheck>;
}

export type HealthCheck = () => boolean | Promise<boolean>;

/** Every registry and the router refuse registrations from now on. */
export function freezeRegistries(registries: Registries): void {
  for (const registry of Object.values(registries) as Array<{ freeze(): void }>) registry.freeze();
}

export function createRegistries(): Registries {
  return Object.freeze({
    providers: new Registry<ProviderAdapter>('provider'),
    strategies: new Registry<Strategy>('strategy'),
    checks: new Registry<GuardrailCheck<any>>('guardrail check'),
    cacheModes: new Registry<CacheMode>('cache mode'),
    endpoints: new Registry<EndpointDef>('endpoint'),
    routes: new Router(),
    health: new Registry<HealthCheck>('health check'),
  });
}
