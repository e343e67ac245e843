/**
 * Typed per-request values: a plugin keeps what it knows about one request under a key it owns
 * (`requestKey<CacheState>('cache.state')`); another plugin reads it only through the exported key,
 * typed. A value is set once per request on the hot path: this is one Map and nothing more.
 */
export interface RequestKey<T> {
  /** For messages and debugging; identity is the key object. */
  readonly name: string;
  /** Type-level only: the value kept under this key. */
  readonly __value?: T;
}

export function requestKey<T>(name: string): RequestKey<T> {
  return Object.freeze({ name });
}

export class RequestValues {
  /** Made by the first `set`: most requests of a lean gateway keep nothing. */
  #map: Map<RequestKey<unknown>, unknown> | undefined;

  get<T>(key: RequestKey<T>): T | undefined {
    return this.#map?.get(key) as T | undefined;
  }

  set<T>(key: RequestKey<T>, value: T): this {
    (this.#map ??= new Map()).set(key, value);
    return this;
  }

  has(key: RequestKey<unknown>): boolean {
    return this.#map?.has(key) ?? false;
  }

  delete(key: RequestKey<unknown>): boolean {
    return this.#map?.delete(key) ?? false;
  }

  /** Copies every value of `other` here (a request the gateway sends itself inherits its seed). */
  copyFrom(other: RequestValues): void {
    if (other.#map) for (const [key, value] of other.#map) this.set(key, value);
  }
}
