/** The embedded store's file: WAL, 16 KiB pages for a new file, an existing file's page size kept. */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { chmodSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';

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

describe('store.sqlite: file modes', function () {
  let dir: string;
  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-sqlite-mode-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

  it('creates gw.db, its WAL and its shared-memory file 0600 even under umask 000', async () => {
    const file = join(dir, 'gw.db');
    const previous = process.umask(0o000);
    let store: SqliteStore;
    try {
      store = new SqliteStore(file);
    } finally {
      process.umask(previous);
    }
    await store.migrate('t', ['CREATE TABLE t (v TEXT)']);
    await store.run('INSERT INTO t (v) VALUES (?)', ['x']);
    expect(store.tightened).to.deep.equal([]);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(f), f).to.equal('600');
    store.close();
  });

  it('tightens an existing database and WAL readable by others, and says which', async () => {
    const file = join(dir, 'gw.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')");
    old.close();
    chmodSync(file, 0o644);
    const store = new SqliteStore(file);
    expect(store.tightened.map((t) => [basename(t.file), t.was])).to.deep.include(['gw.db', '644']);
    expect(modeOf(file)).to.equal('600');
    expect(modeOf(`${file}-wal`)).to.equal('600');
    expect(await store.all('SELECT v FROM t')).to.deep.equal([{ v: 'kept' }]);
    store.close();
  });

  it('leaves an existing 0600 database alone and reports nothing', async () => {
    const file = join(dir, 'gw.db');
    new SqliteStore(file).close();
    const again = new SqliteStore(file);
    expect(again.tightened).to.deep.equal([]);
    expect(modeOf(file)).to.equal('600');
    again.close();
  });
});
