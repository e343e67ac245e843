/**
 * The SecretReferences service: a reference's value by slug, for the caller's organisation and
 * workspace. The workspace is checked on every call; values are kept in memory for `cacheTtlMs`
 * (0: never) per reference revision, and concurrent first requests share one fetch. A slug no
 * stored reference has, shaped like an `envPrefix` variable name, resolves from the environment
 * as before secret references existed.
 */
import { GatewayError, type ServiceAccountTokens, type SecretBox, type Transport } from '../../../core/index.js';
import type { SecretReferences, SecretRequester } from './contract.js';
import type { SecretReferenceCatalogue } from './catalogue.js';
import { managerHostDenied, notAllowedIn, unavailable } from './errors.js';
import { isEnvName } from './managers/env.js';
import { MANAGERS } from './managers/index.js';
import { SecretFetchError, type ManagerConfig } from './managers/manager.js';
import { allowedIn, type SecretReference } from './record.js';
import { openSecrets } from './rows.js';
import { selectValue } from './select.js';

export interface ResolverOptions {
  cacheTtlMs: number;
  timeoutMs: number;
  envPrefix: string;
}

export interface ResolverDeps {
  catalogue: SecretReferenceCatalogue;
  box: SecretBox;
  transport: Transport;
  tokens: Pick<ServiceAccountTokens, 'token'>;
  env: Readonly<Record<string, string | undefined>>;
}

interface Cached {
  value: string;
  expiresAt: number;
}

export class SecretResolver implements SecretReferences {
  readonly #values = new WeakMap<SecretReference, Cached>();
  readonly #pending = new WeakMap<SecretReference, Promise<string>>();
  readonly #configs = new WeakMap<SecretReference, ManagerConfig>();
  /** Fetches started (for tests and operators: how often managers are asked). */
  fetches = 0;

  constructor(private readonly deps: ResolverDeps, private readonly options: ResolverOptions) {}

  resolve(reference: string, requester: SecretRequester): string | undefined | Promise<string> {
    const stored = this.deps.catalogue.bySlug(requester.organisationId, reference);
    if (!stored) return isEnvName(reference, this.options.envPrefix) ? this.deps.env[reference] : undefined;
    if (!allowedIn(stored, requester.workspaceId)) throw notAllowedIn(stored.slug, requester.workspaceId!);
    const cached = this.#values.get(stored);
    if (cached && Date.now() < cached.expiresAt) return cached.value;
    let pending = this.#pending.get(stored);
    if (!pending) {
      pending = this.#fetch(stored).finally(() => this.#pending.delete(stored));
      this.#pending.set(stored, pending);
    }
    return pending;
  }

  /** Whether `reference` names a stored reference of the organisation, or an environment variable this service reads. */
  exists(reference: string, organisationId: string): boolean {
    return this.deps.catalogue.bySlug(organisationId, reference) !== undefined || isEnvName(reference, this.options.envPrefix);
  }

  async #fetch(reference: SecretReference): Promise<string> {
    this.fetches++;
    const manager = MANAGERS[reference.manager];
    let value: string;
    try {
      const fetched = await manager.fetch(this.#configOf(reference), reference.secretPath, {
        transport: this.deps.transport,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        tokens: this.deps.tokens,
        env: this.deps.env,
      });
      value = selectValue(fetched, reference.secretKey);
    } catch (e) {
      throw this.#failure(reference, e);
    }
    if (this.options.cacheTtlMs > 0) this.#values.set(reference, { value, expiresAt: Date.now() + this.options.cacheTtlMs });
    return value;
  }

  #configOf(reference: SecretReference): ManagerConfig {
    let config = this.#configs.get(reference);
    if (!config) {
      config = Object.freeze({ ...reference.config, ...openSecrets(this.deps.box, reference) });
      this.#configs.set(reference, config);
    }
    return config;
  }

  /** Any failure as an answer naming the reference and its manager; only safe words of the cause. */
  #failure(reference: SecretReference, e: unknown): GatewayError {
    const { slug, manager } = reference;
    if (e instanceof SecretFetchError) return unavailable(slug, manager, e.reason);
    if (e instanceof GatewayError) {
      if (e.code === 'outbound_host_denied') return managerHostDenied(slug, manager, e);
      if (e.code === 'secret_reference_unusable') return e;
      return unavailable(slug, manager, `the request failed (${e.status} ${e.code ?? e.type})`);
    }
    const error = e as Error | undefined;
    if (error?.name === 'TimeoutError') return unavailable(slug, manager, `no answer within ${this.options.timeoutMs} ms`);
    return unavailable(slug, manager, 'the secret manager is unreachable');
  }
}
