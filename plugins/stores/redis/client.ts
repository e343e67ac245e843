/**
 * ioredis enters the codebase here. One client per gateway, set up so that a slow or dead Redis
 * never stalls a request: no offline queue (a command while disconnected fails at once), no
 * per-command retries, a command time-out, and reconnection in the background.
 */
import { Redis } from 'ioredis';

export interface RedisClientSettings {
  url: string;
  keyPrefix: string;
  commandTimeoutMs: number;
  connectTimeoutMs: number;
}

export interface ClientRole {
  /** A pub/sub connection: the relay subscribes on each 'ready' itself (and learns it reconnected). */
  subscriber?: boolean;
}

export function createRedisClient(settings: RedisClientSettings, onError: (error: unknown) => void, role: ClientRole = {}): Redis {
  const client = new Redis(settings.url, {
    keyPrefix: settings.keyPrefix,
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: settings.connectTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Keep trying in the background, at most every 2 s; requests meanwhile degrade (cache misses).
    retryStrategy: (times) => Math.min(times * 100, 2000),
    autoResubscribe: !role.subscriber,
  });
  client.on('error', onError);
  return client;
}

/** Whether the client became ready within `ms` (boot waits this long at most, then goes on degraded). */
export function waitReady(client: Redis, ms: number): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    client.on('ready', onReady);
  });
}

/** QUIT, bounded; a client that cannot say goodbye is disconnected. */
export async function closeClient(client: Redis, ms = 1000): Promise<void> {
  if (client.status === 'end') return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.quit(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('quit timed out')), ms))),
    ]);
  } catch {
    client.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
