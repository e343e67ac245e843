/**
 * Shared small state: counters and flags that several gateway instances must agree on
 * (circuit breakers, rate-limit counters, usage). Process memory by default; Redis when
 * GW_REDIS_URL is set. Values are strings; every write can carry a time to live.
 */
export interface StateStore {
  readonly kind: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Atomically adds `by` (default 1) and returns the new value; the TTL is set when the key is created. */
  increment(key: string, by?: number, ttlMs?: number): Promise<number>;
  /** Sets the key only when absent (a short lock: Redis SET NX PX); true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
}
