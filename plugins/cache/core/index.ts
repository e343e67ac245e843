/**
 * cache.core: response caching per target (config `cache`, inherited by children; spec §2.1).
 *
 * Where: it wraps each cached target's call outermost (WrapStage.CACHE). That is after
 * `beforeRequest` (override/default/drop params have shaped the body, so the key covers the body
 * as sent upstream) and after input guardrails, before output guardrails (the kernel runs them on
 * whatever the wrapper returns: a cached answer never bypasses a deny guardrail). A hit calls no
 * provider and spends no retry or breaker state. The lookup is per target because the key covers
 * the provider identity: in a fallback, each cached target has its own entries.
 *
 * What: the mode named by `cache.mode` (registries.cacheModes: `simple`, `semantic` ...) finds and
 * writes entries in the CacheStore (Services.Cache: memory, or Redis). A miss's 200 answer is
 * kept aside and written from `onResponse` once the client received it complete with status 200
 * (so errors, 246/446 guardrail results and partial streams are never stored). Streams are
 * recorded as they pass and stored as the equivalent non-stream answer; a streamed hit is an SSE
 * replay of it. `x-gw-cache-status`: HIT, SEMANTIC HIT, MISS, REFRESH, or DISABLED for every
 * inference request whose serving target has no cache (or `max_age: 0`).
 * Identical misses on this process coalesce (runner.ts, in-flight.ts): one calls the provider, the
 * others wait for its stored entry (HIT), at most `request_timeout` or `coalesceWaitMs`. Across
 * instances, the leaders of one key meet at a short lock in the StateStore (shared-lock.ts, Redis
 * with GW_REDIS_URL): one calls the provider, the others wait for its entry, at most `coalesceLockMs`.
 * Targets without `cache`, and passthrough targets, are not wrapped at all.
 */
import {
  Services, MAX_TIMER_MS, rateLimitedWarning, Stage, Type, WrapStage, type CacheStore, type Plugin, type StateStore, type PluginApi, type Static,
} from '../../../core/index.js';
import { STATUS_HEADER, NAMESPACE_HEADER, REFRESH_HEADER } from './headers.js';
import { commitPending } from './commit.js';
import { InFlight, type InFlightStats } from './in-flight.js';
import { KeyMemo } from './key-memo.js';
import { withCache, type CacheDeps } from './runner.js';
import { SharedLocks } from './shared-lock.js';
import { newState } from './state.js';
import { CACHE_CONFIG } from './config-keys.js';

const Options = Type.Object({
  /** Lifetime of an entry when the config sets no `max_age` (seconds). */
  defaultMaxAgeSeconds: Type.Integer({ minimum: 1, default: 3600 }),
  /** Largest `max_age` a config may ask (seconds; default 30 days). */
  maxAgeCapSeconds: Type.Integer({ minimum: 1, default: 30 * 24 * 3600 }),
  /** Largest answer stored, bytes (a streamed answer counts its event bytes); larger ones pass unstored. */
  maxEntryBytes: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  /**
   * Longest a miss waits for an identical miss already being fetched, when its target sets no
   * `request_timeout` (ms); then it calls the provider itself. 0 turns coalescing off.
   */
  coalesceWaitMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
  /**
   * Longest life of the lock that coalesces identical misses across instances (ms, in the shared
   * StateStore): how long other instances wait for a holder that died before calling the provider.
   */
  coalesceLockMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 10_000 }),
  /**
   * Exact keys kept by the bytes of the client's body (bodies up to 16 KiB), so a repeated request
   * is keyed without re-serialising and hashing it. 0 turns the memo off.
   */
  keyMemoEntries: Type.Integer({ minimum: 0, default: 10_000 }),
}, { additionalProperties: false });

export type CacheOptions = Static<typeof Options>;

export default class CachePlugin implements Plugin<CacheOptions> {
  static readonly manifest = { id: 'cache.core', description: 'Response cache per target (cache.mode, max_age, x-gw-cache-*)', requires: [Services.Cache], options: Options, config: CACHE_CONFIG };

  readonly #flights = new InFlight();

  /** Misses being fetched and requests waiting for them (inspection: tests, diagnostics). */
  inFlight(): InFlightStats {
    return this.#flights.stats();
  }

  apply(api: PluginApi<CacheOptions>): void {
    if (!api.services.has(Services.Cache)) {
      throw new Error('no cache store is registered (Services.Cache): load "cache.store-memory" '
        + '(or "store.redis" with GW_REDIS_URL) before "cache.core"');
    }
    const { defaultMaxAgeSeconds, maxAgeCapSeconds, maxEntryBytes, coalesceWaitMs, coalesceLockMs, keyMemoEntries } = api.options;
    const modes = api.registries.cacheModes;
    let store: CacheStore | undefined;
    let state: StateStore | null | undefined;
    const warn = rateLimitedWarning(api.logger);
    // Resolved at first use, like the cache store; without a state store misses coalesce on this process only.
    const sharedState = () => {
      if (state === undefined) state = api.services.find(Services.State) ?? null;
      return state ?? undefined;
    };
    const deps: CacheDeps = {
      // Resolved at first use, so a store registered later (Redis over memory) wins.
      store: () => (store ??= api.services.get(Services.Cache)),
      maxEntryBytes,
      warn,
      now: () => Date.now(),
      flights: coalesceWaitMs > 0 ? this.#flights : undefined,
      coalesceWaitMs,
      keys: new KeyMemo(keyMemoEntries),
      roles: api.configKeys,
      locks: coalesceWaitMs > 0 ? new SharedLocks(sharedState, warn) : undefined,
      lockMs: coalesceLockMs,
    };

    api.hooks.validateConfig.tap(api.id, (node, path, issues) => {
      const cache = node.cache;
      if (!cache) return;
      const prefix = path ? `${path}.cache.` : 'cache.';
      // The mode itself is checked with the config's keys (config-keys.ts).
      if (cache.max_age !== undefined && cache.max_age > maxAgeCapSeconds) {
        issues.push({ path: prefix + 'max_age', rule: `must be <= ${maxAgeCapSeconds} (seconds)` });
      }
    });

    // Once per inference request, before routing: the default status, and malformed cache headers refused.
    api.hooks.preRoute.tap({ name: api.id, stage: Stage.CACHE }, (ctx) => {
      ctx.responseHeaders[STATUS_HEADER] = 'DISABLED';
      const headers = ctx.request.headers;
      if (headers[NAMESPACE_HEADER] !== undefined || headers[REFRESH_HEADER] !== undefined) newState(ctx);
      return undefined;
    });

    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.CACHE }, (run, target) => {
      const cache = target.cache;
      if (!cache || target.passthrough === true) return run;
      const maxAge = cache.max_age ?? defaultMaxAgeSeconds;
      const mode = modes.get(cache.mode);
      if (maxAge === 0 || !mode) return run;
      return withCache(run, mode, maxAge, deps);
    });

    api.hooks.onResponse.tap(api.id, (ctx, response, completion) => commitPending(ctx, response, completion, deps));
  }
}
