/**
 * Finds the breaker and policy of a target without hashing on every request: entries are cached
 * per `cb_config` object (a config parsed once is reused across requests) and target path, and
 * reused while the target's identity fields are unchanged. Breakers are shared by identity.
 */
import type { Target } from '../../../core/index.js';
import { Breaker, type BreakerDeps } from './breaker.js';
import { identityFields, sameFields, targetIdentity, type IdentityFields } from './identity.js';
import { compilePolicy, type BreakerPolicy, type CbConfig } from './policy.js';

export interface BreakerEntry {
  readonly fields: IdentityFields;
  readonly breaker: Breaker;
  readonly policy: BreakerPolicy;
}

interface ConfigEntry {
  readonly policy: BreakerPolicy;
  readonly byPath: Map<string, BreakerEntry>;
}

/** Breakers kept in memory; beyond it the oldest is dropped (its state stays in the store). */
export const MAX_BREAKERS = 10_000;

export class BreakerTable {
  readonly #configs = new WeakMap<CbConfig, ConfigEntry>();
  readonly #breakers = new Map<string, Breaker>();

  constructor(private readonly deps: BreakerDeps, private readonly maxBreakers = MAX_BREAKERS) {}

  entryFor(target: Target, cb: CbConfig): BreakerEntry {
    let config = this.#configs.get(cb);
    if (!config) {
      config = { policy: compilePolicy(cb), byPath: new Map() };
      this.#configs.set(cb, config);
    }
    const path = target.$path;
    const cached = config.byPath.get(path);
    if (cached && sameFields(cached.fields, target)) return cached;
    const fields = identityFields(target);
    const entry: BreakerEntry = { fields, breaker: this.breaker(targetIdentity(fields, path)), policy: config.policy };
    config.byPath.set(path, entry);
    return entry;
  }

  /** The breaker of an identity, if this instance has one. */
  known(identity: string): Breaker | undefined {
    return this.#breakers.get(identity);
  }

  /** Every breaker reads the shared state before its next attempt (messages may have been lost). */
  resyncAll(): void {
    for (const breaker of this.#breakers.values()) breaker.resync();
  }

  /** The breaker of an identity, created on first use. */
  breaker(identity: string): Breaker {
    let breaker = this.#breakers.get(identity);
    if (!breaker) {
      if (this.#breakers.size >= this.maxBreakers) this.#breakers.delete(this.#breakers.keys().next().value!);
      breaker = new Breaker(identity, this.deps);
      this.#breakers.set(identity, breaker);
    }
    return breaker;
  }
}
