/** A named collection that refuses duplicates, so two plugins can never silently shadow each other. */
export class Registry<T> {
  readonly #items = new Map<string, T>();
  readonly #owners = new Map<string, string>();

  constructor(readonly kind: string) {}

  register(key: string, item: T, owner = 'unknown'): void {
    const existing = this.#owners.get(key);
    if (existing !== undefined) {
      throw new Error(`${this.kind} "${key}" is registered twice (by ${existing} and ${owner})`);
    }
    this.#items.set(key, item);
    this.#owners.set(key, owner);
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  keys(): string[] {
    return [...this.#items.keys()];
  }

  values(): T[] {
    return [...this.#items.values()];
  }
}
