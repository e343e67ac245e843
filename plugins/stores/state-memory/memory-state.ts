/** Process-memory StateStore: a Map with lazy expiry plus a periodic sweep so it stays bounded. */
import type { StateStore } from '../../../core/index.js';

interface Entry {
  value: string;
  expiresAt: number;
}

export class MemoryStateStore implements StateStore {
  readonly kind = 'memory';
  readonly #entries = new Map<string, Entry>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(sweepIntervalMs = 60_000, private readonly now: () => number = Date.now) {
    this.#sweeper = setInterval(() => this.sweep(), sweepIntervalMs);
    this.#sweeper.unref();
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.#entries.set(key, { value, expiresAt: ttlMs ? this.now() + ttlMs : Number.POSITIVE_INFINITY });
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async increment(key: string, by = 1, ttlMs?: number): Promise<number> {
    const entry = this.#live(key);
    if (entry) {
      const next = Number(entry.value) + by;
      entry.value = String(next);
      return next;
    }
    this.#entries.set(key, { value: String(by), expiresAt: ttlMs ? this.now() + ttlMs : Number.POSITIVE_INFINITY });
    return by;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key)) return false;
    this.#entries.set(key, { value, expiresAt: this.now() + ttlMs });
    return true;
  }

  /** Drops expired entries. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
