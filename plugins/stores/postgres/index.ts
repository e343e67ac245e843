/**
 * store.postgres: the record store in PostgreSQL (GW_DATABASE_URL), registered as
 * Services.Records, so several instances share keys, configs, logs and the rest. The default
 * preset loads it instead of store.sqlite when GW_DATABASE_URL is set.
 */
import { rateLimitedWarning, Services, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { PostgresStore } from './postgres-store.js';

const Options = Type.Object({
  /** Most connections this instance opens. */
  maxConnections: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  /** A statement running longer is cancelled (the request answers 503 store_unavailable). */
  statementTimeoutMs: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  /** How long a statement waits for a connection (a new one, or a free one when all are busy). */
  connectTimeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: 5_000 }),
  /** An idle connection is closed after this long. */
  idleTimeoutMs: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000 }),
  /** A schema of its own (made when missing); default: the connection's search_path (usually `public`). */
  schema: Type.Optional(Type.String({ pattern: '^[a-z_][a-z0-9_]{0,62}$', errorMessage: 'must be a lower-case SQL identifier (a-z, 0-9, _; at most 63)' })),
}, { additionalProperties: false });

export default class PostgresStorePlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = {
    id: 'store.postgres', description: 'PostgreSQL record store (GW_DATABASE_URL)', provides: [Services.Records], options: Options,
  };
  #store?: PostgresStore;

  async apply(api: PluginApi<Static<typeof Options>>): Promise<void> {
    const url = api.settings.databaseUrl;
    if (!url) throw new Error('store.postgres needs GW_DATABASE_URL (postgres://user:password@host:port/database)');
    const warn = rateLimitedWarning(api.logger);
    const store = new PostgresStore({
      url, ...api.options,
      onUnavailable: (error, reason) => warn(error, `record store unavailable: ${reason}`),
    });
    this.#store = store;
    await store.open();
    api.services.provide(Services.Records, store);
    api.registries.health.register('store.postgres', () => store.writable(), api.id);
  }

  async close(): Promise<void> {
    await this.#store?.close();
  }
}
