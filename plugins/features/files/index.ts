/**
 * feature.files: `/v1/files` (upload, list, get, content, delete). File bytes live in a blob store
 * (blobs.ts: `<dataDir>/files`, chunk rows under PostgreSQL, or GW_FILES_DIR) with their records
 * in the record store, or at the provider when the request names one with an OpenAI-compatible files API (routes.ts). Registers the file service (core's
 * FileService, file-service.ts) under Services.Files for batches and fine-tuning.
 */
import {
  Services, Type, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { chooseBlobs } from './blobs.js';
import { StoredFileService } from './file-service.js';
import { filesRoutes } from './routes.js';

const Options = Type.Object({
  /** Largest accepted upload, bytes (413 above it). */
  maxUploadBytes: Type.Integer({ minimum: 1, default: 512 * 1024 * 1024 }),
  /** Folder of stored files for the folder backend; default `<GW_DATA_DIR>/files`. */
  dir: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Where file bytes live: `auto` (chunk rows in the record store when it is PostgreSQL, else the
   * folder), `folder` or `records`. GW_FILES_DIR (a folder every instance shares) wins over all.
   */
  blobs: Type.Union([Type.Literal('auto'), Type.Literal('folder'), Type.Literal('records')], { default: 'auto' }),
  /** Bytes per chunk row of the records backend. */
  chunkBytes: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024, default: 256 * 1024 }),
  /**
   * Providers with an OpenAI-compatible files API (and, for feature.batches, batches API), by id, with
   * their default base URL; a config's `custom_host` replaces the base.
   */
  providers: Type.Record(Type.String(), Type.String({ minLength: 1 }), { default: { openai: 'https://api.openai.com/v1' } }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class FilesPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'feature.files',
    description: 'Files: multipart uploads stored on disk or forwarded to the provider',
    requires: [Services.Records], provides: [Services.Files],
    options: Options,
  };

  async apply(api: PluginApi<Options>): Promise<void> {
    const store = api.services.get(Services.Records);
    const transport = api.services.get(Services.Transport);
    const kernel = api.services.get(Services.Kernel);
    const blobs = chooseBlobs({ backend: api.options.blobs, dir: api.options.dir, chunkBytes: api.options.chunkBytes }, api.settings, store, api.logger);
    const files = new StoredFileService(store, blobs, transport, api.options.providers);
    await files.init();
    api.services.provide(Services.Files, files);
    for (const route of filesRoutes(files, kernel, transport, { maxUploadBytes: api.options.maxUploadBytes })) {
      api.registries.routes.add(route);
    }
  }
}
