/**
 * The SQLite batch writer: batches run in a worker thread on its own connection, each in one
 * transaction, visible to the store's reads once written; a failing batch, a dead thread and a
 * file that cannot be opened reject their batches (never hang) and the next batch still works.
 * Values arrive as they were sent: the same bytes and SQLite types as bound on the store's own
 * connection; a value JSON cannot carry, or one that is not a value, is refused with its batch.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { WorkerBatchWriter } from '../../../../plugins/stores/sqlite/batch-writer.js';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';

const insert = (...ids: string[]) => ({ sql: `INSERT INTO t (id) VALUES ${ids.map(() => '(?)').join(', ')}`, params: ids });

describe('store.sqlite: batch writer thread', () => {
  let dir: string;
  let store: SqliteStore;
  let stopped: Error[];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-sqlite-batch-'));
    stopped = [];
    store = new SqliteStore(join(dir, 'gw.db'), { onWriterStopped: (e) => stopped.push(e) });
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const count = async () => (await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;

  it('writes a batch in a worker thread; the store reads it once the write resolves', async () => {
    await store.batchWriter.write([insert('a', 'b'), insert('c')]);
    expect(store.batchWriter.worker).to.not.equal(undefined);
    expect(await count()).to.equal(3);
    // Statement texts are sent once per thread, then by number.
    await store.batchWriter.write([insert('d', 'e'), insert('f')]);
    expect(await count()).to.equal(6);
  });

  it('writes all of a batch or none of it: a failing statement rejects the batch, the next one is written', async () => {
    await store.run("CREATE TRIGGER refuse BEFORE INSERT ON t WHEN NEW.id = 'bad' BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
    const failed = await store.batchWriter.write([insert('x'), insert('bad'), insert('y', 'z')]).then(() => undefined, (e: Error) => e);
    expect(failed?.message).to.contain('disk says no');
    expect(await count()).to.equal(0);
    // Both texts of the failed batch are known to the thread now, even the one after the failure.
    await store.batchWriter.write([insert('v', 'w'), insert('u')]);
    expect(await count()).to.equal(3);
    expect(stopped).to.have.length(0);
  });

  it('says so when the thread dies, and starts another for the next batch', async () => {
    await store.batchWriter.write([insert('first')]);
    const worker = store.batchWriter.worker!;
    // Killed between batches: terminating a thread inside a SQLite call aborts the process (the writer never does).
    await worker.terminate();
    expect(stopped).to.have.length(1);
    expect(store.batchWriter.worker).to.equal(undefined);
    await store.batchWriter.write([insert('after')]);
    expect(store.batchWriter.worker).to.not.equal(worker);
    expect((await store.all<{ id: string }>('SELECT id FROM t ORDER BY id')).map((r) => r.id)).to.deep.equal(['after', 'first']);
  });

  it('rejects the batch in flight (never hangs) when the thread dies at open, and tries again at each batch', async () => {
    const writer = new WorkerBatchWriter({ file: join(dir, 'missing', 'x.db'), busyTimeoutMs: 100 });
    try {
      for (let i = 0; i < 2; i++) {
        const failed = await writer.write([insert('a')]).then(() => undefined, (e: Error) => e);
        expect(failed?.message).to.match(/writer thread stopped/);
      }
    } finally {
      await writer.close();
    }
  });

  it('close waits for the batches in flight, then ends the thread; later writes are refused', async () => {
    const blocker = new Database(join(dir, 'gw.db'));
    blocker.exec('BEGIN IMMEDIATE');
    const written = store.batchWriter.write([insert('slow')]);
    const worker = store.batchWriter.worker!;
    const exited = once(worker, 'exit');
    const closing = store.batchWriter.close();
    await new Promise((r) => setTimeout(r, 50));
    blocker.exec('COMMIT');
    blocker.close();
    await written;
    await closing;
    await exited;
    const check = new Database(join(dir, 'gw.db'), { readonly: true });
    expect(check.prepare('SELECT id FROM t').pluck().all()).to.deep.equal(['slow']);
    check.close();
    const refused = await store.batchWriter.write([insert('late')]).then(() => undefined, (e: Error) => e);
    expect(refused?.message).to.contain('closed');
  });

  describe('values', () => {
    const VALUES: unknown[] = [
      'plain', '', 'q"\'\\`', 'a\0b', '\0', 'ünï 😀 \u2028\u2029', 'x\u0001\u001f\u007f', '{"json":[1,2]}', 'null', '0',
      0, 1, -1, 42, 1_764_115_200_123, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 0.1, 1.5, -2.25, 1e-7, 1e21, 5e-324, 1.7976931348623157e308, 12.345, 0.000_012_3,
      null,
    ];
    /** Each value's type and bytes as stored in `table`, in a column of each affinity. */
    const stored = (table: string) => store.all<{ i: number }>(
      `SELECT i, typeof(v) AS t, hex(v) AS x, typeof(tv) AS tt, hex(tv) AS tx, typeof(iv) AS it, hex(iv) AS ix, typeof(rv) AS rt, hex(rv) AS rx FROM ${table} ORDER BY i`,
    );

    it('stores every value with the bytes and SQLite type the store\'s own connection gives it', async () => {
      for (const table of ['direct', 'threaded']) await store.run(`CREATE TABLE ${table} (i INTEGER, v, tv TEXT, iv INTEGER, rv REAL)`);
      const sql = (table: string) => `INSERT INTO ${table} (i, v, tv, iv, rv) VALUES ${VALUES.map(() => '(?, ?, ?, ?, ?)').join(', ')}`;
      const params = VALUES.flatMap((v, i) => [i, v, v, v, v]);
      await store.run(sql('direct'), params);
      await store.batchWriter.write([{ sql: sql('threaded'), params }]);
      const direct = await stored('direct');
      expect(direct).to.have.length(VALUES.length);
      expect(await stored('threaded')).to.deep.equal(direct);
      const back = await store.all<{ v: unknown }>('SELECT v FROM threaded ORDER BY i');
      expect(back.map((r) => r.v)).to.deep.equal(VALUES);
      const types = await store.all<{ t: string; it: string; rt: string }>('SELECT typeof(v) AS t, typeof(iv) AS it, typeof(rv) AS rt FROM threaded WHERE i IN (?, ?, ?, ?) ORDER BY i', [
        VALUES.indexOf('a\0b'), VALUES.indexOf(42), VALUES.indexOf(1.5), VALUES.indexOf(null),
      ]);
      expect(types).to.deep.equal([
        { t: 'text', it: 'text', rt: 'text' },
        { t: 'real', it: 'integer', rt: 'real' }, // numbers are bound as doubles; the column's affinity makes 42 an INTEGER
        { t: 'real', it: 'real', rt: 'real' },
        { t: 'null', it: 'null', rt: 'null' },
      ]);
    });

    it('refuses a batch with a value JSON cannot carry (BigInt) before it reaches the thread; the next one is written', async () => {
      const refused = await store.batchWriter.write([insert('a'), { sql: 'INSERT INTO t (id) VALUES (?)', params: [1n] }]).then(() => undefined, (e: Error) => e);
      expect(refused).to.be.instanceOf(TypeError);
      expect(refused?.message).to.match(/BigInt/);
      expect(await count()).to.equal(0);
      await store.batchWriter.write([insert('a')]);
      expect(await count()).to.equal(1);
    });

    it('refuses a batch with an object or array where a value goes, whatever it would spread into', async () => {
      for (const value of [{ id: 'x' }, ['x'], true]) {
        const refused = await store.batchWriter.write([insert('y'), { sql: 'INSERT INTO t (id) VALUES (?)', params: [value] }]).then(() => undefined, (e: Error) => e);
        expect(refused, JSON.stringify(value)).to.be.instanceOf(Error);
      }
      expect(await count()).to.equal(0);
      expect(stopped).to.have.length(0);
    });

    it('runs a statement with as many parameters as SQLite allows', async () => {
      const ids = Array.from({ length: 32_766 }, (_, i) => `id-${i}`);
      await store.batchWriter.write([insert(...ids)]);
      expect(await count()).to.equal(32_766);
    });
  });
});
