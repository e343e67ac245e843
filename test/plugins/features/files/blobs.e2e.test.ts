/**
 * Blob backends of feature.files: chunk rows in the record store (the default on PostgreSQL;
 * forced here so both passes of the suite run it), one file read by another gateway on the same
 * records, and GW_FILES_DIR, a folder every instance shares.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestGateway } from '../../../helpers/gateway.js';
import { withRecords } from '../../../helpers/records.js';
import { call, form, KEY_HEADERS, startFeatureGateway, upload } from './helpers.js';

const CHUNK = 256 * 1024;
const THREE_MB = 3 * 1024 * 1024 + 1234;

/** Bytes that differ per position, so a chunk out of order or twice changes the digest. */
function patterned(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 12)) & 0xff;
  return bytes;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function download(base: string, id: string): Promise<Buffer> {
  const res = await fetch(`${base}/v1/files/${id}/content`, { headers: KEY_HEADERS });
  expect(res.status).to.equal(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('feature.files blob stores', () => {
  describe('records backend (chunk rows)', () => {
    let a: TestGateway;
    let b: TestGateway;

    before(async () => {
      a = await startFeatureGateway({ files: { blobs: 'records', maxUploadBytes: 8 * 1024 * 1024 } });
      // A second gateway on the same records: another instance of a fleet.
      b = await startFeatureGateway({ files: { blobs: 'records' }, env: { GW_DATA_DIR: a.dataDir } });
    });
    after(async () => {
      await b?.stop();
      await a?.stop();
    });

    it('stores a 3 MB upload as bounded chunks, in order, and nothing in the folder', async () => {
      const bytes = patterned(THREE_MB);
      const file = await upload(a.url, bytes);
      expect(file.bytes).to.equal(THREE_MB);
      const chunks = await withRecords(a.dataDir, (r) =>
        r.all<{ seq: number; size: number }>('SELECT seq, LENGTH(data) AS size FROM file_chunks WHERE file_id = ? ORDER BY seq', [file.id]));
      expect(chunks.map((c) => c.seq)).to.deep.equal([...Array(Math.ceil(THREE_MB / CHUNK)).keys()]);
      // Every chunk but the last is exactly one chunk long: the write never held more than that.
      expect(chunks.slice(0, -1).every((c) => Number(c.size) === CHUNK)).to.equal(true);
      expect(Number(chunks.at(-1)!.size)).to.equal(THREE_MB % CHUNK);
      const folder = await readdir(join(a.dataDir, 'files')).catch(() => []);
      expect(folder).to.deep.equal([]);
      // Streamed out chunk by chunk, waiting for the socket each time without piling up listeners.
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      try {
        expect(sha(await download(a.url, file.id))).to.equal(sha(bytes));
        await new Promise((r) => setImmediate(r));
      } finally {
        process.off('warning', onWarning);
      }
      expect(warnings).to.not.include('MaxListenersExceededWarning');
    });

    it('serves a file uploaded through one gateway from another', async () => {
      const bytes = patterned(600 * 1024);
      const file = await upload(a.url, bytes);
      expect(sha(await download(b.url, file.id))).to.equal(sha(bytes));
      const deleted = await call(b.url, 'DELETE', `/v1/files/${file.id}`);
      expect(deleted.json.deleted).to.equal(true);
      expect((await call(a.url, 'GET', `/v1/files/${file.id}/content`)).status).to.equal(404);
      const left = await withRecords(a.dataDir, (r) => r.get<{ n: number }>('SELECT COUNT(*) AS n FROM file_chunks WHERE file_id = ?', [file.id]));
      expect(Number(left!.n)).to.equal(0);
    });

    it('keeps an empty file as empty, not missing', async () => {
      const file = await upload(a.url, new Uint8Array(0));
      expect((await download(b.url, file.id)).byteLength).to.equal(0);
    });

    it('answers 413 over the limit and keeps no chunk of it', async () => {
      const before = await withRecords(a.dataDir, (r) => r.get<{ n: number }>('SELECT COUNT(*) AS n FROM file_chunks'));
      const reply = await call(a.url, 'POST', '/v1/files', {}, form(patterned(8 * 1024 * 1024 + 1)));
      expect(reply.status).to.equal(413);
      expect(reply.json.error.message).to.equal(`body exceeds the limit of ${8 * 1024 * 1024} bytes`);
      const after = await withRecords(a.dataDir, (r) => r.get<{ n: number }>('SELECT COUNT(*) AS n FROM file_chunks'));
      expect(Number(after!.n)).to.equal(Number(before!.n));
    });

    it('refuses a chunk size below 1 KiB naming the option', async () => {
      const failed = await startFeatureGateway({ files: { chunkBytes: 10 } }).then(async (gw) => {
        await gw.stop();
        return undefined;
      }, (e: Error) => e);
      expect(failed?.message).to.match(/chunkBytes/);
    });
  });

  describe('GW_FILES_DIR (a shared folder)', () => {
    let shared: string;
    let gw: TestGateway;

    before(async () => {
      shared = await mkdtemp(join(tmpdir(), 'gw-shared-files-'));
      // Wins over the records backend too.
      gw = await startFeatureGateway({ files: { blobs: 'records' }, env: { GW_FILES_DIR: shared } });
    });
    after(async () => {
      await gw?.stop();
      await rm(shared, { recursive: true, force: true });
    });

    it('keeps the bytes in the shared folder', async () => {
      const bytes = patterned(70 * 1024);
      const file = await upload(gw.url, bytes);
      expect(await readdir(shared)).to.deep.equal([file.id]);
      expect(sha(await download(gw.url, file.id))).to.equal(sha(bytes));
      const chunks = await withRecords(gw.dataDir, (r) => r.all('SELECT file_id FROM file_chunks').catch(() => []));
      expect(chunks).to.deep.equal([]);
    });

    it('leaves a recent unfinished write of another instance alone at start', async () => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(shared, 'file-0000000000000000000000000000000000.99.part'), 'x');
      const second = await startFeatureGateway({ env: { GW_FILES_DIR: shared, GW_DATA_DIR: gw.dataDir } });
      try {
        expect(await readdir(shared)).to.include('file-0000000000000000000000000000000000.99.part');
      } finally {
        await second.stop();
      }
    });
  });
});
