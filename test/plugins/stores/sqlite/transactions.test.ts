/**
 * Transactions on the one synchronous SQLite connection: a transaction's async function holds the
 * connection, so statements made meanwhile by others wait and never land inside it (nor in its rollback).
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';

describe('store.sqlite: transactions and dialect', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-sqlite-tx-'));
    store = new SqliteStore(join(dir, 'gw.db'));
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
  });
  afterEach(async () => {
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    expect(await store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['kept']);
      return 'done';
    })).to.equal('done');
    const error = await store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['dropped']);
      throw new Error('changed my mind');
    }).then(() => undefined, (e: Error) => e.message);
    expect(error).to.equal('changed my mind');
    expect(await store.all('SELECT id FROM t')).to.deep.equal([{ id: 'kept' }]);
  });

  it('makes a statement sent while a transaction awaits wait for its end, so a rollback does not undo it', async () => {
    const order: string[] = [];
    const rolledBack = store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['inside']);
      await tick();
      order.push('transaction ends');
      throw new Error('roll back');
    }).catch(() => undefined);
    const outside = store.run('INSERT INTO t VALUES (?)', ['outside']).then(() => order.push('outside written'));
    const count = store.get<{ n: number }>('SELECT COUNT(*) AS n FROM t');
    await Promise.all([rolledBack, outside]);
    expect(order).to.deep.equal(['transaction ends', 'outside written']);
    // Read after the rollback and the outside insert: only the outside row.
    expect(await count).to.deep.equal({ n: 1 });
    expect(await store.all('SELECT id FROM t')).to.deep.equal([{ id: 'outside' }]);
  });

  it('runs transactions one after another, each seeing the previous one committed', async () => {
    const counts = await Promise.all([1, 2, 3].map((i) => store.transaction(async (tx) => {
      const before = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
      await tick();
      await tx.run('INSERT INTO t VALUES (?)', [`row-${i}`]);
      return before;
    })));
    expect(counts).to.deep.equal([0, 1, 2]);
  });

  it('speaks the sqlite dialect and applies the sqlite text of a per-dialect migration step', async () => {
    expect(store.dialect).to.equal('sqlite');
    await store.migrate('d', ['CREATE TABLE d (v TEXT)', { sqlite: "INSERT INTO d VALUES ('sqlite')", postgres: "INSERT INTO d VALUES ('postgres')" }]);
    expect(await store.all('SELECT v FROM d')).to.deep.equal([{ v: 'sqlite' }]);
  });
});
