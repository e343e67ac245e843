/**
 * Verified keys by secret hash, so that steady-state requests never reach the store; unknown keys
 * are remembered briefly (bounded) so a flood of bad keys cannot hammer it either. An entry never
 * outlives the key's own validity (expiry, end of a transition window). Any change to a key clears
 * the cache; a generation counter keeps a lookup that raced with a change from storing a stale verdict.
 * A verdict past its freshness stays until replaced: while the store cannot be reached, a key that
 * was verified keeps working (until its own validity ends) instead of every request failing.
 */
import type { Principal } from '../../../core/index.js';

export interface VerdictCacheOptions {
  ttlMs: number;
  negativeTtlMs: number;
  maxEntries: number;
}

interface Entry {
  principal: Principal | null;
  /** When the cached verdict must be re-read (ms). */
  freshUntilMs: number;
  /** When the key itself stops being valid (ms). */
  validUntilMs: number;
}

export class VerdictCache {
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  constructor(private readonly options: VerdictCacheOptions) {}

  get generation(): number {
    return this.#generation;
  }

  /** The cached verdict, or undefined when there is none still usable at `nowMs`. */
  get(hash: string, nowMs: number): Principal | null | undefined {
    const entry = this.#entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.freshUntilMs > nowMs && entry.validUntilMs > nowMs) return entry.principal;
    if (entry.validUntilMs <= nowMs) this.#entries.delete(hash);
    return undefined;
  }

  /** A verified principal no longer fresh but still valid at `nowMs`: what to use while the store is away. */
  stale(hash: string, nowMs: number): Principal | undefined {
    const entry = this.#entries.get(hash);
    return entry?.principal && entry.validUntilMs > nowMs ? entry.principal : undefined;
  }

  /** Stores a verdict read at `generation`, unless a change happened meanwhile. */
  set(hash: string, principal: Principal | null, validUntilMs: number, nowMs: number, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= this.options.maxEntries) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const ttl = principal ? this.options.ttlMs : this.options.negativeTtlMs;
    this.#entries.set(hash, { principal, freshUntilMs: nowMs + ttl, validUntilMs });
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
