/** The embedded store's file: WAL, 16 KiB pages for a new file, an existing file's page size kept. */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../plugins/store-sqlite/sqlite-store.js';

describe('store.sqlite: the database file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-sqlite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a new file in WAL mode with 16 KiB pages, and keeps both when reopened', async () => {
    const file = join(dir, 'gw.db');
    const store = new SqliteStore(file);
    await store.migrate('t', ['CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)']);
    await store.run('INSERT INTO t (v) VALUES (?)', ['x']);
    expect(store.db.pragma('page_size', { simple: true })).to.equal(16384);
    expect(store.db.pragma('journal_mode', { simple: true })).to.equal('wal');
    store.close();
    const again = new SqliteStore(file);
    expect(again.db.pragma('page_size', { simple: true })).to.equal(16384);
    expect(await again.get('SELECT v FROM t')).to.deep.equal({ v: 'x' });
    again.close();
  });

  it('opens an existing file made with other pages as it is', async () => {
    const file = join(dir, 'old.db');
    const old = new Database(file);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')");
    old.close();
    const store = new SqliteStore(file);
    expect(store.db.pragma('page_size', { simple: true })).to.equal(4096);
    expect(await store.all('SELECT v FROM t')).to.deep.equal([{ v: 'kept' }]);
    store.close();
  });
});
