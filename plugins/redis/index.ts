/**
 * store.redis: shared state for several gateway instances, from GW_REDIS_URL (settings.redisUrl).
 * Without a URL it registers nothing (the memory stores stay in charge). With one it opens one
 * ioredis client and registers, over the memory ones (so it must be loaded after them):
 *   - Tokens.CacheStore: response-cache entries (failures are misses, with a rate-limited warning);
 *   - Tokens.StateStore: counters and breaker state (atomic increments);
 *   - a health check (`/health` says "degraded" while Redis is unreachable).
 * Boot waits for the first connection at most `readyWaitMs`, then goes on degraded and keeps
 * reconnecting in the background. The client is closed at shutdown.
 */
import type { Redis } from 'ioredis';
import { Services, MAX_TIMER_MS, rateLimitedWarning, Tokens, Type, type Plugin, type PluginApi, type Static } from '../../core/index.js';
import { RedisCacheStore } from './cache-store.js';
import { closeClient, createRedisClient, waitReady } from './client.js';
import { RedisStateStore } from './state-store.js';

const Options = Type.Object({
  /** Prefix of every key this gateway writes (share it between instances that share entries). */
  keyPrefix: Type.String({ default: 'gw:' }),
  /** A command not answered within this time fails (a cache read then answers as a miss). */
  commandTimeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 200 }),
  connectTimeoutMs: Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, default: 1000 }),
  /** How long boot waits for the first connection. */
  readyWaitMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 1000 }),
}, { additionalProperties: false });

export type RedisPluginOptions = Static<typeof Options>;

export default class RedisStorePlugin implements Plugin<RedisPluginOptions> {
  static readonly manifest = {
    id: 'store.redis', description: 'Cache and state stores in Redis (GW_REDIS_URL)', provides: [Services.State, Services.Cache], options: Options,
  };
  #client?: Redis;

  async apply(api: PluginApi<RedisPluginOptions>): Promise<void> {
    const url = api.settings.redisUrl;
    if (!url) return;
    const o = api.options;
    const warn = rateLimitedWarning(api.logger);
    const client = createRedisClient(
      { url, keyPrefix: o.keyPrefix, commandTimeoutMs: o.commandTimeoutMs, connectTimeoutMs: o.connectTimeoutMs },
      (error) => warn(error, 'redis connection error'),
    );
    this.#client = client;
    api.container.register(Tokens.CacheStore, { useValue: new RedisCacheStore(client, warn) });
    api.container.register(Tokens.StateStore, { useValue: new RedisStateStore(client) });
    api.registries.health.register('redis', () => client.status === 'ready', api.id);
    if (!(await waitReady(client, o.readyWaitMs))) {
      api.logger.warn({ status: client.status }, 'redis not reachable at boot: running degraded, reconnecting in the background');
    }
  }

  async close(): Promise<void> {
    if (this.#client) await closeClient(this.#client);
  }
}
