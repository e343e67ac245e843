/**
 * Where the bytes of stored files live (the records of files are always in the record store).
 * Three backends behind one interface, so the file service does not know which one runs:
 * a private folder under GW_DATA_DIR (default), chunked rows in the record store (the default
 * when the records are in PostgreSQL, so every instance reads every file), or a folder shared by
 * every instance (GW_FILES_DIR, which wins over both).
 */
import { join } from 'node:path';
import type { GatewaySettings, Logger, RecordStore } from '../../../core/index.js';
import { FolderBlobs } from './folder-blobs.js';
import { RecordBlobs } from './record-blobs.js';

export interface BlobStore {
  /** `folder` or `records`, for logs and tests. */
  readonly kind: string;
  init(): Promise<void>;
  /**
   * Stores the bytes of `id`, replacing earlier bytes only once all are stored; resolves to their
   * length. Over `maxBytes` it rejects with 413 and keeps nothing.
   */
  write(id: string, source: AsyncIterable<Uint8Array | string>, maxBytes?: number): Promise<number>;
  /** The bytes in order; rejects with 404 `file_not_found` before the first byte when there are none. */
  read(id: string): Promise<AsyncIterable<Uint8Array>>;
  delete(id: string): Promise<void>;
  /** Drops unfinished writes and bytes without a record (after a crash); `known` says which ids have one. */
  removeLeftovers(known: (id: string) => boolean): Promise<number>;
}

export type BlobBackend = 'auto' | 'folder' | 'records';

export interface BlobChoice {
  backend: BlobBackend;
  /** Folder of the folder backend when GW_FILES_DIR is unset. */
  dir?: string;
  chunkBytes: number;
}

/** How long an unfinished write may sit in a shared store before another instance removes it. */
export const SHARED_LEFTOVER_AGE_MS = 60 * 60_000;

export function chooseBlobs(choice: BlobChoice, settings: GatewaySettings, store: RecordStore, logger: Logger): BlobStore {
  if (settings.filesDir) return new FolderBlobs(settings.filesDir, SHARED_LEFTOVER_AGE_MS, logger);
  const records = choice.backend === 'records' || (choice.backend === 'auto' && store.dialect === 'postgres');
  if (records) return new RecordBlobs(store, choice.chunkBytes, SHARED_LEFTOVER_AGE_MS);
  return new FolderBlobs(choice.dir ?? join(settings.dataDir, 'files'), 0, logger);
}
