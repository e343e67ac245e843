/** An in-memory StateStore for unit tests that records every call and can be told to fail. TTLs are ignored. */
import type { StateStore } from '../../../../core/index.js';

export class RecordingStore implements StateStore {
  readonly kind = 'test';
  readonly values = new Map<string, string>();
  readonly calls: string[] = [];
  failing = false;

  async get(key: string): Promise<string | undefined> {
    this.#record('get', key);
    return this.values.get(key);
  }

  async set(key: string, value: string): Promise<void> {
    this.#record('set', key);
    this.values.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.#record('delete', key);
    this.values.delete(key);
  }

  async increment(key: string, by = 1): Promise<number> {
    this.#record('increment', key);
    const next = Number(this.values.get(key) ?? 0) + by;
    this.values.set(key, String(next));
    return next;
  }

  async setIfAbsent(key: string, value: string): Promise<boolean> {
    this.#record('setIfAbsent', key);
    if (this.values.has(key)) return false;
    this.values.set(key, value);
    return true;
  }

  /** The value under `cb:<identity>:<suffix>`. */
  read(identity: string, suffix: string): string | undefined {
    return this.values.get(`cb:${identity}:${suffix}`);
  }

  #record(op: string, key: string): void {
    this.calls.push(`${op} ${key}`);
    if (this.failing) throw new Error('store down');
  }
}
