/**
 * File bytes as chunked rows of the record store (`file_chunks`), so every instance on one
 * PostgreSQL reads every file. Both ways stream: a write holds at most one chunk plus the piece
 * being read, a read fetches one chunk row at a time, in order.
 *
 * A write stores its chunks under a temporary id and renames them to the file's id in one short
 * transaction, so a reader sees the old bytes or the new ones, never a mix. A file always has a
 * chunk 0 (empty for an empty file), which tells "no bytes" from "empty".
 */
import { randomBytes } from 'node:crypto';
import { Errors, type MigrationStep, type RecordStore } from '../../../core/index.js';
import type { BlobStore } from './blobs.js';

export const CHUNK_MIGRATIONS: readonly MigrationStep[] = [
  {
    sqlite: 'CREATE TABLE file_chunks (file_id TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, written_at BIGINT NOT NULL, PRIMARY KEY (file_id, seq))',
    postgres: 'CREATE TABLE file_chunks (file_id TEXT NOT NULL, seq INTEGER NOT NULL, data BYTEA NOT NULL, written_at BIGINT NOT NULL, PRIMARY KEY (file_id, seq))',
  },
];

const PART = '.part.';

export class RecordBlobs implements BlobStore {
  readonly kind = 'records';

  constructor(
    private readonly store: RecordStore,
    readonly chunkBytes: number,
    private readonly leftoverAgeMs: number,
  ) {}

  async init(): Promise<void> {
    await this.store.migrate('feature.files.chunks', CHUNK_MIGRATIONS);
  }

  async write(id: string, source: AsyncIterable<Uint8Array | string>, maxBytes?: number): Promise<number> {
    const temporary = `${id}${PART}${randomBytes(6).toString('hex')}`;
    const writtenAt = Date.now();
    let seq = 0;
    let bytes = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async (size: number) => {
      const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      const chunk = all.subarray(0, size);
      const rest = all.subarray(size);
      pending = rest.byteLength > 0 ? [rest] : [];
      pendingBytes = rest.byteLength;
      await this.store.run('INSERT INTO file_chunks (file_id, seq, data, written_at) VALUES (?, ?, ?, ?)', [temporary, seq++, chunk, writtenAt]);
    };
    try {
      for await (const piece of source) {
        const buffer = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        bytes += buffer.byteLength;
        if (maxBytes !== undefined && bytes > maxBytes) throw Errors.payloadTooLarge(maxBytes);
        pending.push(buffer);
        pendingBytes += buffer.byteLength;
        while (pendingBytes >= this.chunkBytes) await flush(this.chunkBytes);
      }
      if (pendingBytes > 0 || seq === 0) await flush(pendingBytes);
      await this.store.transaction(async (tx) => {
        await tx.run('DELETE FROM file_chunks WHERE file_id = ?', [id]);
        await tx.run('UPDATE file_chunks SET file_id = ? WHERE file_id = ?', [id, temporary]);
      });
    } catch (e) {
      await this.store.run('DELETE FROM file_chunks WHERE file_id = ?', [temporary]).catch(() => undefined);
      throw e;
    }
    return bytes;
  }

  async read(id: string): Promise<AsyncIterable<Uint8Array>> {
    const first = await this.#chunk(id, 0);
    if (first === undefined) throw Errors.notFound(`the content of file "${id}" is gone`, 'file_not_found');
    const next = (seq: number) => this.#chunk(id, seq);
    return (async function* () {
      if (first.byteLength > 0) yield first;
      for (let seq = 1; ; seq++) {
        const chunk = await next(seq);
        if (chunk === undefined) return;
        yield chunk;
      }
    })();
  }

  async delete(id: string): Promise<void> {
    await this.store.run('DELETE FROM file_chunks WHERE file_id = ?', [id]);
  }

  /** Chunks of writes that never finished, and of files without a record, once they are old enough. */
  async removeLeftovers(known: (id: string) => boolean): Promise<number> {
    const cutoff = Math.floor(Date.now() - this.leftoverAgeMs);
    const rows = await this.store.all<{ file_id: string }>(
      'SELECT DISTINCT file_id FROM file_chunks WHERE seq = 0 AND written_at < ?', [cutoff],
    );
    let removed = 0;
    for (const { file_id: fileId } of rows) {
      if (!fileId.includes(PART) && known(fileId)) continue;
      await this.delete(fileId);
      removed++;
    }
    return removed;
  }

  async #chunk(id: string, seq: number): Promise<Buffer | undefined> {
    const row = await this.store.get<{ data: Buffer }>('SELECT data FROM file_chunks WHERE file_id = ? AND seq = ?', [id, seq]);
    return row?.data;
  }
}
