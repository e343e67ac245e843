/** A small bounded map that forgets its least recently used entry, with an optional time to live. */
export class Lru<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly max: number, private readonly ttlMs = Infinity) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.max <= 0) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of this.#entries.keys()) if (matches(key)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
