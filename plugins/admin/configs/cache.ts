/**
 * Stored configs by `x-gw-config` value, in memory: a steady stream of requests naming the same
 * config never reaches the store. A write on any instance clears every instance's cache through the
 * invalidation bus (topic `configs`); entries live `ttlMs`, the bound on staleness when no relay
 * carries changes (no Redis, or Redis away). Unknown ids are remembered briefly so a flood of bad
 * ids cannot hammer the store.
 */
import { deepFreeze, type Changes } from '../../../core/index.js';

export const CONFIGS_TOPIC = 'configs';
import type { ConfigRepo } from './repo.js';

export interface StoredConfig {
  readonly id: string;
  readonly slug: string;
  readonly workspaceId: string | undefined;
  readonly version: number;
  /** Frozen: shared by every request that names it. */
  readonly config: Readonly<Record<string, unknown>>;
}

export interface CacheOptions {
  ttlMs: number;
  negativeTtlMs: number;
  maxEntries: number;
}

interface Entry {
  value: StoredConfig | null;
  expiresAt: number;
}

export class StoredConfigCache {
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<StoredConfig | null>>();
  /** Bumped by clear(): a load that started before a write does not fill the cache. */
  #generation = 0;
  #publish: () => void = () => this.clear();

  constructor(private readonly repo: ConfigRepo, private readonly options: CacheOptions) {}

  /** The latest version of a config of the organisation, or null when there is none. */
  get(organisationId: string, ref: string): StoredConfig | null | Promise<StoredConfig | null> {
    const key = organisationId + '\n' + ref;
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > Date.now()) return entry.value;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#load(key, organisationId, ref).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  /** Clears the cache when any instance writes a config. */
  follow(changes: Changes): void {
    changes.subscribe(CONFIGS_TOPIC, () => this.clear());
    this.#publish = () => changes.publish(CONFIGS_TOPIC);
  }

  /** A config was written here: every instance clears its cache. */
  changed(): void {
    this.#publish();
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#pending.clear();
  }

  async #load(key: string, organisationId: string, ref: string): Promise<StoredConfig | null> {
    const generation = this.#generation;
    const row = await this.repo.find(organisationId, ref);
    const text = row && await this.repo.version(row.id, row.version);
    const value: StoredConfig | null = row && text !== undefined
      ? Object.freeze({
        id: row.id,
        slug: row.slug,
        workspaceId: row.workspace_id ?? undefined,
        version: row.version,
        config: deepFreeze(JSON.parse(text) as Record<string, unknown>),
      })
      : null;
    if (generation === this.#generation) this.#remember(key, value);
    return value;
  }

  #remember(key: string, value: StoredConfig | null): void {
    const ttl = value ? this.options.ttlMs : this.options.negativeTtlMs;
    if (ttl <= 0 || this.options.maxEntries <= 0) return;
    if (this.#entries.size >= this.options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { value, expiresAt: Date.now() + ttl });
  }
}
