/**
 * CacheStore on Redis, shared by every gateway instance using the same Redis and key prefix.
 * Any failure (disconnected, time-out, error reply) is a miss or a skipped write, with a
 * rate-limited warning: a cache never fails a request.
 */
import type { Redis } from 'ioredis';
import { asBuffer, type CacheStore } from '../../../core/index.js';

const PREFIX = 'cache:';

export class RedisCacheStore implements CacheStore {
  readonly kind = 'redis';

  constructor(
    private readonly client: Redis,
    private readonly warn: (error: unknown, message: string) => void,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    if (!this.#usable()) return undefined;
    try {
      return (await this.client.getBuffer(PREFIX + key)) ?? undefined;
    } catch (e) {
      this.warn(e, 'redis cache read failed: answering as a miss');
      return undefined;
    }
  }

  async set(key: string, value: Uint8Array, ttlSeconds: number): Promise<void> {
    if (ttlSeconds <= 0 || !this.#usable()) return;
    try {
      const buffer = asBuffer(value);
      await this.client.set(PREFIX + key, buffer, 'EX', ttlSeconds);
    } catch (e) {
      this.warn(e, 'redis cache write failed: entry not stored');
    }
  }

  async delete(key: string): Promise<void> {
    if (!this.#usable()) return;
    try {
      await this.client.del(PREFIX + key);
    } catch (e) {
      this.warn(e, 'redis cache delete failed');
    }
  }

  /** Not connected: skip the call (it would fail at once anyway) and say so. */
  #usable(): boolean {
    if (this.client.status === 'ready') return true;
    this.warn(new Error(`redis is ${this.client.status}`), 'redis unavailable: cache answers as a miss');
    return false;
  }
}
