/**
 * A Map with a size bound for memo tables: when full, the oldest entry goes (insertion order).
 * Cheaper than an LRU and enough where the working set is small and stable (configs, digests).
 *
 * The last key found is kept beside the map and compared first: keys here are often long strings
 * that arrive fresh with every request (a config header), a Map lookup hashes them in full each
 * time, and clients repeat the same headers, so a comparison usually answers.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  #lastKey: K | undefined;
  #lastValue: V | undefined;

  constructor(readonly maxEntries: number) {}

  get(key: K): V | undefined {
    if (this.#lastValue !== undefined && key === this.#lastKey) return this.#lastValue;
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#lastKey = key;
      this.#lastValue = value;
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.maxEntries <= 0) return;
    if (this.#entries.size >= this.maxEntries && !this.#entries.has(key)) {
      const oldest = this.#entries.keys().next().value as K;
      this.#entries.delete(oldest);
      if (oldest === this.#lastKey) this.#forgetLast();
    }
    this.#entries.set(key, value);
    if (key === this.#lastKey) this.#lastValue = value;
  }

  /**
   * The value kept for `key`, or the one `make` returns, kept (a `make` that throws keeps nothing).
   * `make` is given the key, so a caller can pass one function for every key, not a closure per call.
   */
  remember(key: K, make: (key: K) => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = make(key);
      this.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.#entries.size;
  }

  #forgetLast(): void {
    this.#lastKey = undefined;
    this.#lastValue = undefined;
  }
}
