/**
 * Names of the services plugins provide and require (manifest `provides` / `requires`). A plugin
 * depends on a service, never on the plugin that implements it, so implementations can be swapped
 * (SQLite or PostgreSQL records, memory or Redis state).
 */
export const Services = {
  /** Relational records (Tokens.RecordStore): store.sqlite, store.postgres. */
  Records: 'records',
  /** Shared counters and small state (Tokens.StateStore): state.memory, store.redis. */
  State: 'state',
  /** Response-cache entries (Tokens.CacheStore): cache.store-memory, store.redis. */
  Cache: 'cache',
  /** Stored files (Tokens.FileStore). */
  Files: 'files',
  /** The key check of protected routes (auth.api-key). A gateway serving protected routes without it refuses to boot unless allowed. */
  Auth: 'auth',
} as const;

export type ServiceName = (typeof Services)[keyof typeof Services];
