/**
 * store.redis: shared state for several gateway instances, from GW_REDIS_URL (settings.redisUrl).
 * Without a URL it registers nothing (the memory stores stay in charge). With one it opens one
 * ioredis client and registers, over the memory ones (so it must be loaded after them):
 *   - Services.Cache: response-cache entries (failures are misses, with a rate-limited warning);
 *   - Services.State: counters and breaker state (atomic increments);
 *   - the relay of the invalidation bus (Services.Changes) over pub/sub, on a second connection;
 *   - a health check (`/health` says "degraded" while either connection is down).
 * Boot waits for both connections at most `readyWaitMs`, then goes on degraded and keeps
 * reconnecting in the background. The client is closed at shutdown.
 */
import { Services, changesIn, MAX_TIMER_MS, rateLimitedWarning, Type, type Changes, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { RedisCacheStore } from './cache-store.js';
import { RedisChangeRelay } from './change-relay.js';
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
  #changes?: Changes;
  #closeClients?: () => Promise<unknown>;

  async apply(api: PluginApi<RedisPluginOptions>): Promise<void> {
    const url = api.settings.redisUrl;
    if (!url) return;
    // ioredis is imported once a URL is set: a gateway without Redis never loads it.
    const { createRedisClient, waitReady, closeClient } = await import('./client.js');
    const o = api.options;
    const warn = rateLimitedWarning(api.logger);
    const client = createRedisClient(
      { url, keyPrefix: o.keyPrefix, commandTimeoutMs: o.commandTimeoutMs, connectTimeoutMs: o.connectTimeoutMs },
      (error) => warn(error, 'redis connection error'),
    );
    const changes = changesIn(api.services);
    const subscriber = createRedisClient(
      { url, keyPrefix: o.keyPrefix, commandTimeoutMs: o.commandTimeoutMs, connectTimeoutMs: o.connectTimeoutMs },
      (error) => warn(error, 'redis subscriber connection error'),
      { subscriber: true },
    );
    this.#closeClients = () => Promise.all([closeClient(client), closeClient(subscriber)]);
    this.#changes = changes;
    changes.attach(new RedisChangeRelay(client, subscriber, `${o.keyPrefix}changes`, changes, warn));
    api.services.provide(Services.Cache, new RedisCacheStore(client, warn));
    api.services.provide(Services.State, new RedisStateStore(client));
    // Degraded too while changes cannot arrive: caches then fall back to their lifetimes.
    api.registries.health.register('redis', () => client.status === 'ready' && subscriber.status === 'ready', api.id);
    const ready = await Promise.all([waitReady(client, o.readyWaitMs), waitReady(subscriber, o.readyWaitMs)]);
    if (!ready.every(Boolean)) {
      api.logger.warn({ status: client.status }, 'redis not reachable at boot: running degraded, reconnecting in the background');
    }
  }

  async close(): Promise<void> {
    this.#changes?.attach(undefined);
    await this.#closeClients?.();
  }
}
