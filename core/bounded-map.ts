/**
 * A Map with a size bound for memo tables: when full, the oldest entry goes (insertion order).
 * Cheaper than an LRU and enough where the working set is small and stable (configs, digests).
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {}

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.maxEntries <= 0) return;
    if (this.#entries.size >= this.maxEntries && !this.#entries.has(key)) {
      this.#entries.delete(this.#entries.keys().next().value as K);
    }
    this.#entries.set(key, value);
  }

  /** The value kept for `key`, or the one `make` returns, kept (a `make` that throws keeps nothing). */
  remember(key: K, make: () => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = make();
      this.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
