/**
 * A typed service key: one object per service carries its manifest name (`provides` / `requires`),
 * its container token and, at the type level, what it resolves to, so `api.services.get(key)`
 * needs no cast. Keys are compared by identity: a service is defined once (core for the shared
 * contracts, a family's contract file for its own) and imported from there.
 */
export interface ServiceKey<T> {
  /** The name the loader and `--describe` print (`records`, `directory` ...). */
  readonly name: string;
  /** The container token the value is registered under. */
  readonly token: symbol;
  /** Type-level only: what the service resolves to. */
  readonly __service?: T;
}

/** The value type of a service key. */
export type ServiceOf<K> = K extends ServiceKey<infer T> ? T : never;

export function serviceKey<T>(name: string): ServiceKey<T> {
  return Object.freeze({ name, token: Symbol(`gw.service.${name}`) });
}
