/**
 * A named collection that refuses duplicates, so two plugins can never silently shadow each other.
 * Filled at boot, then frozen: the run phase reads it without locks or surprises.
 */
export class Registry<T> {
  readonly #items = new Map<string, T>();
  readonly #owners = new Map<string, string>();
  #frozen = false;

  constructor(readonly kind: string) {}

  register(key: string, item: T, owner = 'unknown'): void {
    if (this.#frozen) {
      throw new Error(`${this.kind} "${key}" cannot be registered${owner === 'unknown' ? '' : ` (by plugin "${owner}")`}: the gateway is already running; register at boot, in apply()`);
    }
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

  /** Each entry's key and the plugin that registered it, in registration order. */
  entries(): Array<{ name: string; plugin: string }> {
    return [...this.#owners].map(([name, plugin]) => ({ name, plugin }));
  }

  /** Called once the gateway is booted: a later `register` throws. */
  freeze(): void {
    this.#frozen = true;
  }
}
