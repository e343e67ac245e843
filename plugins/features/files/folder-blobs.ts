/**
 * File bytes in a folder, one file per id: written to `<id>.part`, fsynced, then renamed, so a
 * reader never sees half a file. A private folder cleans leftovers at start; a folder shared by
 * several instances (GW_FILES_DIR) only those older than `leftoverAgeMs`, since another instance
 * may be writing them right now.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Errors, type Logger } from '../../../core/index.js';
import type { BlobStore } from './blobs.js';
import { countBytes } from './count-bytes.js';

/** Local file ids: safe as file names (no path separators, no dots). */
export const LOCAL_FILE_ID = /^file-[0-9a-z]{34}$/;

export class FolderBlobs implements BlobStore {
  readonly kind = 'folder';

  constructor(
    readonly dir: string,
    private readonly leftoverAgeMs: number,
    private readonly logger: Logger,
  ) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  async write(id: string, source: AsyncIterable<Uint8Array | string>, maxBytes?: number): Promise<number> {
    const final = this.#path(id);
    const temporary = `${final}.${process.pid}.part`;
    const counter = countBytes(maxBytes);
    try {
      await pipeline(source, counter.transform, createWriteStream(temporary, { mode: 0o600 }));
      const handle = await open(temporary, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, final);
    } catch (e) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw e;
    }
    await this.#syncDir();
    return counter.bytes();
  }

  async read(id: string): Promise<AsyncIterable<Uint8Array>> {
    // Opened before answering, so a missing file is an error response, not a cut stream.
    const handle = await open(this.#path(id), 'r').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') throw Errors.notFound(`the content of file "${id}" is gone`, 'file_not_found');
      throw e;
    });
    return handle.createReadStream({ highWaterMark: 64 * 1024 });
  }

  async delete(id: string): Promise<void> {
    await rm(this.#path(id), { force: true });
  }

  async removeLeftovers(known: (id: string) => boolean): Promise<number> {
    const names = await readdir(this.dir);
    const cutoff = Date.now() - this.leftoverAgeMs;
    let removed = 0;
    for (const name of names) {
      if (!(name.endsWith('.part') || (LOCAL_FILE_ID.test(name) && !known(name)))) continue;
      if (this.leftoverAgeMs > 0) {
        const modified = await stat(join(this.dir, name)).then((s) => s.mtimeMs, () => Infinity);
        if (modified > cutoff) continue;
      }
      await rm(join(this.dir, name), { force: true });
      removed++;
    }
    if (removed > 0) this.logger.info({ removed }, 'removed unfinished or unrecorded files');
    return removed;
  }

  #path(id: string): string {
    return join(this.dir, id);
  }

  /** A rename is durable once its directory is synced (not every platform allows it: best effort). */
  async #syncDir(): Promise<void> {
    try {
      const handle = await open(this.dir, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      /* best effort */
    }
  }
}
