/**
 * Prompt versions in the record store, one row per version, namespaced by organisation.
 * Versions are immutable, so a compiled version is cached without expiry (bounded); the latest
 * version of a prompt is cached for `latestTtlMs`. A PUT on any instance drops that entry on every
 * instance through the invalidation bus (topic `prompts`); without a relay (no Redis, or Redis
 * away) `latestTtlMs` bounds how long another instance keeps rendering the previous version.
 * SQL is portable (SQLite, PostgreSQL): `?` placeholders, INSERT ... SELECT ... RETURNING.
 */
import { deepFreeze, type Changes, type RecordStore } from '../../../core/index.js';
import { Lru } from './lru.js';
import { compilePrompt, type CompiledPrompt } from './prompt.js';

const MIGRATIONS = [
  `CREATE TABLE prompt_versions (
    organisation_id TEXT NOT NULL,
    prompt_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    template TEXT NOT NULL,
    created_at BIGINT NOT NULL, -- was INTEGER: the same 64-bit affinity on SQLite; 32-bit on PostgreSQL
    PRIMARY KEY (organisation_id, prompt_id, version)
  )`,
];

interface Row {
  version: number;
  template: string;
  created_at: number;
}

export const PROMPTS_TOPIC = 'prompts';

export interface PromptStoreOptions {
  latestTtlMs: number;
  cacheMaxEntries: number;
}

export class PromptStore {
  readonly #latest: Lru<CompiledPrompt>;
  readonly #versions: Lru<CompiledPrompt>;
  #changes: Changes | undefined;

  constructor(private readonly store: RecordStore, options: PromptStoreOptions) {
    this.#latest = new Lru(options.cacheMaxEntries, options.latestTtlMs);
    this.#versions = new Lru(options.cacheMaxEntries);
  }

  /** Drops a prompt's cached latest version when any instance stores a new one. */
  follow(changes: Changes): void {
    changes.subscribe(PROMPTS_TOPIC, (id) => {
      if (id === undefined) {
        this.#latest.clear();
        this.#versions.clear();
      } else {
        this.#forget(id);
      }
    });
    this.#changes = changes;
  }

  init(): Promise<void> {
    return this.store.migrate('feature.prompts', MIGRATIONS);
  }

  /** Stores a new version (the next number, atomically) and returns it compiled. */
  async put(organisation: string, id: string, template: Record<string, unknown>): Promise<CompiledPrompt> {
    const createdAt = Math.floor(Date.now() / 1000);
    // Compiling first: a template that does not parse is refused before anything is written.
    compilePrompt(id, 0, createdAt, template);
    const json = JSON.stringify(template);
    let version: number | undefined;
    for (let attempt = 0; version === undefined; attempt++) {
      try {
        const row = await this.store.get<{ version: number }>(
          `INSERT INTO prompt_versions (organisation_id, prompt_id, version, template, created_at)
           SELECT ?, ?, COALESCE(MAX(version), 0) + 1, ?, ? FROM prompt_versions WHERE organisation_id = ? AND prompt_id = ?
           RETURNING version`,
          [organisation, id, json, createdAt, organisation, id],
        );
        version = Number(row!.version);
      } catch (e) {
        // Two writers picked the same number (a shared database): the loser takes the next one.
        if (attempt >= 2) throw e;
      }
    }
    const compiled = this.#compile(id, { version, template: json, created_at: createdAt });
    // Told first (it drops the entries here too), then this instance keeps what it just wrote.
    this.#changes?.publish(PROMPTS_TOPIC, key(organisation, id));
    this.#latest.set(key(organisation, id), compiled);
    this.#versions.set(key(organisation, id, version), compiled);
    return compiled;
  }

  /** Stores version 1 of a prompt that does not exist yet; undefined when it exists. */
  async create(organisation: string, id: string, template: Record<string, unknown>): Promise<CompiledPrompt | undefined> {
    const createdAt = Math.floor(Date.now() / 1000);
    compilePrompt(id, 0, createdAt, template);
    const json = JSON.stringify(template);
    let row: { version: number } | undefined;
    try {
      row = await this.store.get<{ version: number }>(
        `INSERT INTO prompt_versions (organisation_id, prompt_id, version, template, created_at)
         SELECT ?, ?, 1, ?, ? WHERE NOT EXISTS (SELECT 1 FROM prompt_versions WHERE organisation_id = ? AND prompt_id = ?)
         RETURNING version`,
        [organisation, id, json, createdAt, organisation, id],
      );
    } catch (e) {
      // Another writer made it first (a shared database): it exists.
      if (await this.latest(organisation, id)) return undefined;
      throw e;
    }
    if (!row) return undefined;
    const compiled = this.#compile(id, { version: 1, template: json, created_at: createdAt });
    this.#changes?.publish(PROMPTS_TOPIC, key(organisation, id));
    this.#latest.set(key(organisation, id), compiled);
    this.#versions.set(key(organisation, id, 1), compiled);
    return compiled;
  }

  /** Removes every version of a prompt; false when there was none. */
  async delete(organisation: string, id: string): Promise<boolean> {
    const removed = await this.store.run('DELETE FROM prompt_versions WHERE organisation_id = ? AND prompt_id = ?', [organisation, id]);
    // Version numbers start again at 1 if the id is reused: no instance may keep the old ones.
    this.#changes?.publish(PROMPTS_TOPIC, key(organisation, id));
    this.#forget(key(organisation, id));
    return removed.changes > 0;
  }

  async latest(organisation: string, id: string): Promise<CompiledPrompt | undefined> {
    const cached = this.#latest.get(key(organisation, id));
    if (cached) return cached;
    const row = await this.store.get<Row>(
      'SELECT version, template, created_at FROM prompt_versions WHERE organisation_id = ? AND prompt_id = ? ORDER BY version DESC LIMIT 1',
      [organisation, id],
    );
    if (!row) return undefined;
    const compiled = this.#versions.get(key(organisation, id, Number(row.version))) ?? this.#compile(id, row);
    this.#latest.set(key(organisation, id), compiled);
    this.#versions.set(key(organisation, id, compiled.version), compiled);
    return compiled;
  }

  async version(organisation: string, id: string, version: number): Promise<CompiledPrompt | undefined> {
    const cached = this.#versions.get(key(organisation, id, version));
    if (cached) return cached;
    const row = await this.store.get<Row>(
      'SELECT version, template, created_at FROM prompt_versions WHERE organisation_id = ? AND prompt_id = ? AND version = ?',
      [organisation, id, version],
    );
    if (!row) return undefined;
    const compiled = this.#compile(id, row);
    this.#versions.set(key(organisation, id, version), compiled);
    return compiled;
  }

  /** Drops a prompt's cached versions too: after a delete its numbers may be reused. */
  #forget(promptKey: string): void {
    this.#latest.delete(promptKey);
    this.#versions.deleteWhere((k) => k.startsWith(`${promptKey}\u0000`));
  }

  #compile(id: string, row: Row): CompiledPrompt {
    const template = deepFreeze(JSON.parse(row.template) as Record<string, unknown>);
    return compilePrompt(id, Number(row.version), Number(row.created_at), template);
  }
}

function key(organisation: string, id: string, version?: number): string {
  return version === undefined ? `${organisation}\u0000${id}` : `${organisation}\u0000${id}\u0000${version}`;
}
