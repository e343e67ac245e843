/**
 * StateStore on Redis, so that several instances share counters and breaker state. Failures
 * throw (fast: no offline queue, a command time-out): each caller decides how to degrade.
 * `increment` is one Lua script, so it is atomic and sets the TTL only when it creates the key.
 */
import type { Redis } from 'ioredis';
import type { StateStore } from '../../../core/index.js';

const PREFIX = 'state:';

// KEYS[1] key; ARGV[1] amount; ARGV[2] ttl ms (0: none); ARGV[3] 'f' for a non-integer amount.
const INCREMENT_SCRIPT = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value
if ARGV[3] == 'f' then value = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) else value = redis.call('INCRBY', KEYS[1], ARGV[1]) end
if created and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;

type WithIncrement = Redis & {
  gwIncrement(key: string, by: string, ttlMs: string, kind: string): Promise<number | string>;
};

export class RedisStateStore implements StateStore {
  readonly kind = 'redis';
  readonly #client: WithIncrement;

  constructor(client: Redis) {
    // defineCommand sends EVALSHA (EVAL once when the script is not loaded yet); keys get the client's prefix.
    client.defineCommand('gwIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    this.#client = client as WithIncrement;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#client.get(PREFIX + key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs !== undefined && ttlMs > 0) await this.#client.set(PREFIX + key, value, 'PX', Math.ceil(ttlMs));
    else await this.#client.set(PREFIX + key, value);
  }

  async delete(key: string): Promise<void> {
    await this.#client.del(PREFIX + key);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.#client.set(PREFIX + key, value, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK';
  }

  async increment(key: string, by = 1, ttlMs?: number): Promise<number> {
    const ttl = ttlMs !== undefined && ttlMs > 0 ? String(Math.ceil(ttlMs)) : '0';
    const value = await this.#client.gwIncrement(PREFIX + key, String(by), ttl, Number.isInteger(by) ? 'i' : 'f');
    return Number(value);
  }
}
