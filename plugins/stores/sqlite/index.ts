/** store.sqlite: the embedded record store under GW_DATA_DIR, registered as Services.Records. */
import { join } from 'node:path';
import { Services, Type, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { SqliteStore } from './sqlite-store.js';

const Options = Type.Object({
  /** Database file; default `<GW_DATA_DIR>/gw.db`. */
  file: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: false });

export default class SqliteStorePlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = {
    id: 'store.sqlite', description: 'Embedded SQLite record store (WAL)', provides: [Services.Records], options: Options,
  };
  #store?: SqliteStore;

  apply(api: PluginApi<Static<typeof Options>>): void {
    const store = new SqliteStore(api.options.file ?? join(api.settings.dataDir, 'gw.db'), {
      onWriterStopped: (err) => api.logger.error({ err }, 'SQLite writer thread stopped: its batches in flight were lost; it restarts with the next one'),
    });
    this.#store = store;
    for (const { file, was } of store.tightened) api.logger.warn({ file, was }, 'database file was readable by group or others: set to mode 600');
    api.services.provide(Services.Records, store);
    api.registries.health.register('store.sqlite', () => store.writable(), api.id);
  }

  async close(): Promise<void> {
    await this.#store?.close();
  }
}
