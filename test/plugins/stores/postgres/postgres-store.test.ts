/**
 * The PostgreSQL record store against the real server (GW_DATABASE_URL; skipped without it): each
 * test on a fresh schema. Migrations per dialect and under a lock, transactions, int8 values,
 * prepared statements, the pool's bounds, and the 503 of a store that cannot be reached.
 */
import { expect } from 'chai';
import { createServer } from 'node:net';
import { isGatewayError, type GatewayError } from '../../../../core/index.js';
import { PostgresStore, type PostgresStoreOptions } from '../../../../plugins/stores/postgres/postgres-store.js';
import { freshSchema, testDatabaseUrl, urlWithSchema, type TestSchema } from '../../../helpers/pg-schema.js';
import { startTcpProxy } from '../../../helpers/tcp-proxy.js';

const DEFAULTS = { maxConnections: 4, statementTimeoutMs: 5_000, connectTimeoutMs: 2_000, idleTimeoutMs: 10_000 };

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (e) {
    if (isGatewayError(e)) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('store.postgres: the store', function () {
  let schema: TestSchema;
  const stores: PostgresStore[] = [];
  const open = (options: Partial<PostgresStoreOptions> = {}) => {
    const store = new PostgresStore({ ...DEFAULTS, url: schema.url, ...options });
    stores.push(store);
    return store;
  };

  before(function () {
    if (!testDatabaseUrl()) this.skip();
  });
  beforeEach(async () => {
    schema = await freshSchema();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
    await schema.drop();
  });

  it('speaks the postgres dialect and numbers ? placeholders, leaving ? in literals', async () => {
    const store = open();
    expect(store.dialect).to.equal('postgres');
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)']);
    expect(await store.run("INSERT INTO t (id, v) VALUES (?, '?')", ['a'])).to.deep.equal({ changes: 1 });
    expect(await store.get('SELECT id, v FROM t WHERE id = ?', ['a'])).to.deep.equal({ id: 'a', v: '?' });
    expect(await store.run('UPDATE t SET v = ? WHERE id = ?', ['b', 'missing'])).to.deep.equal({ changes: 0 });
  });

  it('applies the postgres text of a per-dialect step, each step once, and only new steps later', async () => {
    const store = open();
    const steps = [
      'CREATE TABLE m (id TEXT PRIMARY KEY, n BIGINT NOT NULL)',
      { sqlite: 'INSERT INTO m VALUES (\'sqlite\', 1)', postgres: 'INSERT INTO m VALUES (\'postgres\', 1)' },
    ];
    await store.migrate('m', steps);
    await store.migrate('m', steps);
    expect(await store.all('SELECT id FROM m')).to.deep.equal([{ id: 'postgres' }]);
    await store.migrate('m', [...steps, "INSERT INTO m VALUES ('third', 3)"]);
    expect(await store.all('SELECT id FROM m ORDER BY n, id')).to.deep.equal([{ id: 'postgres' }, { id: 'third' }]);
    expect(await store.all('SELECT owner, step FROM _migrations ORDER BY step')).to.deep.equal([
      { owner: 'm', step: 0 }, { owner: 'm', step: 1 }, { owner: 'm', step: 2 },
    ]);
  });

  it('rolls a failing migration back whole, so it is tried again at the next boot', async () => {
    const store = open();
    const bad = ['CREATE TABLE r (id TEXT PRIMARY KEY)', 'CREATE TABLE r (id TEXT)'];
    const error = await store.migrate('r', bad).then(() => undefined, (e: Error) => e);
    expect(error?.message).to.match(/already exists/);
    expect(await store.get("SELECT to_regclass('r') AS t")).to.deep.equal({ t: null });
    await store.migrate('r', ['CREATE TABLE r (id TEXT PRIMARY KEY)']);
    expect(await store.get("SELECT COUNT(*) AS n FROM _migrations WHERE owner = 'r'")).to.deep.equal({ n: 1 });
  });

  it('migrates once when three stores on one fresh schema migrate at the same time', async () => {
    const three = [open(), open(), open()];
    const steps = ['CREATE TABLE once (id SERIAL PRIMARY KEY, at TEXT)', "INSERT INTO once (at) VALUES ('step 1')", 'ALTER TABLE once ADD COLUMN extra TEXT'];
    await Promise.all(three.map((store) => store.migrate('once', steps)));
    expect(await three[0]!.get('SELECT COUNT(*) AS n FROM once')).to.deep.equal({ n: 1 });
    expect(await three[1]!.get("SELECT COUNT(*) AS n FROM _migrations WHERE owner = 'once'")).to.deep.equal({ n: 3 });
  });

  it('keeps two schemas apart: each migrates its own tables', async () => {
    const other = await freshSchema();
    try {
      const a = open();
      const b = open({ url: other.url });
      await Promise.all([a.migrate('x', ['CREATE TABLE x (id TEXT)']), b.migrate('x', ['CREATE TABLE x (id TEXT)'])]);
      await a.run("INSERT INTO x VALUES ('a')");
      expect(await b.all('SELECT id FROM x')).to.deep.equal([]);
    } finally {
      await Promise.all(stores.splice(1).map((s) => s.close()));
      await other.drop();
    }
  });

  it('makes its schema when given one, and works in it', async () => {
    const name = `${schema.name}_own`;
    const store = open({ url: testDatabaseUrl()!, schema: name });
    try {
      await store.open();
      await store.migrate('o', ['CREATE TABLE o (id TEXT)']);
      expect(await store.get('SELECT current_schema() AS s')).to.deep.equal({ s: name });
      expect(await store.get("SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ? AND table_name = 'o'", [name])).to.deep.equal({ n: 1 });
    } finally {
      await store.run(`DROP SCHEMA ${name} CASCADE`);
    }
  });

  it('commits a transaction that resolves, and rolls back one that throws', async () => {
    const store = open();
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
    const result = await store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['kept']);
      return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM t'))!.n;
    });
    expect(result).to.equal(1);
    const error = await store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['dropped']);
      throw new Error('changed my mind');
    }).then(() => undefined, (e: Error) => e.message);
    expect(error).to.equal('changed my mind');
    expect(await store.all('SELECT id FROM t')).to.deep.equal([{ id: 'kept' }]);
  });

  it('shows a transaction\'s rows to others only once it commits', async () => {
    const store = open();
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
    let seenInside: unknown;
    await store.transaction(async (tx) => {
      await tx.run('INSERT INTO t VALUES (?)', ['a']);
      seenInside = await store.get('SELECT COUNT(*) AS n FROM t');
    });
    expect(seenInside).to.deep.equal({ n: 0 });
    expect(await store.get('SELECT COUNT(*) AS n FROM t')).to.deep.equal({ n: 1 });
  });

  it('passes a unique violation on unchanged (code 23505), not as store_unavailable', async () => {
    const store = open();
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
    await store.run('INSERT INTO t VALUES (?)', ['a']);
    const error = await store.run('INSERT INTO t VALUES (?)', ['a']).then(() => undefined, (e: { code?: string }) => e);
    expect(error?.code).to.equal('23505');
    expect(isGatewayError(error)).to.equal(false);
  });

  it('refuses a text value holding U+0000 with a 400 naming the rule (PostgreSQL text cannot hold it)', async () => {
    const store = open();
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
    const error = await rejection(store.get('SELECT id FROM t WHERE id = ?', ['a\u0000b']));
    expect(error.status).to.equal(400);
    expect(error.code).to.equal('invalid_text');
    expect(error.message).to.equal('a text value contains a NUL character (U+0000), which the record store cannot hold');
    expect(await store.get('SELECT COUNT(*) AS n FROM t')).to.deep.equal({ n: 0 });
  });

  it('gives int8 values (COUNT, SUM, BIGINT columns) as numbers while exact, and aggregates of numeric as numbers', async () => {
    const store = open();
    await store.migrate('n', ['CREATE TABLE n (v BIGINT, f DOUBLE PRECISION, i INTEGER)']);
    await store.run('INSERT INTO n VALUES (?, ?, ?), (?, ?, ?)', [1_700_000_000_123, 0.5, 3, 2, 1.25, 4]);
    expect(await store.get('SELECT COUNT(*) AS c, SUM(i) AS si, SUM(v) AS sv, AVG(i) AS ai, MAX(v) AS mv, SUM(f) AS sf FROM n')).to.deep.equal({
      c: 2, si: 7, sv: 1_700_000_000_125, ai: 3.5, mv: 1_700_000_000_123, sf: 1.75,
    });
    expect(await store.get('SELECT 9007199254740993::int8 AS big')).to.deep.equal({ big: '9007199254740993' });
  });

  it('prepares a statement by name once it repeats, and keeps answering it', async () => {
    const store = open({ maxConnections: 1 });
    await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
    await store.run('INSERT INTO t VALUES (?)', ['a']);
    for (let i = 0; i < 3; i++) expect(await store.get('SELECT id FROM t WHERE id = ?', ['a'])).to.deep.equal({ id: 'a' });
    const prepared = await store.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE name LIKE ?', ['gw_%']);
    expect(prepared.map((p) => p.statement)).to.deep.equal(['SELECT id FROM t WHERE id = $1']);
  });

  it('bounds its connections: with all busy, a statement waits connectTimeoutMs, then answers 503 store_unavailable', async () => {
    const store = open({ maxConnections: 1, connectTimeoutMs: 200 });
    let release!: () => void;
    const held = store.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await rejection(store.get('SELECT 1 AS one'));
    expect(error.status).to.equal(503);
    expect(error.code).to.equal('store_unavailable');
    expect(error.message).to.equal('the record store (PostgreSQL) is unavailable: no connection became free in time; try again shortly');
    release();
    await held;
    expect(await store.get('SELECT 1 AS one')).to.deep.equal({ one: 1 });
  });

  it('cancels a statement past statementTimeoutMs with a 503 store_unavailable, and goes on serving', async () => {
    const store = open({ statementTimeoutMs: 200 });
    const error = await rejection(store.get('SELECT pg_sleep(5)'));
    expect(error.status).to.equal(503);
    expect(error.message).to.contain('a statement ran past the statement timeout');
    expect(await store.get('SELECT 2 AS two')).to.deep.equal({ two: 2 });
  });
});

describe('store.postgres: a server that cannot be reached', function () {
  before(function () {
    if (!testDatabaseUrl()) this.skip();
  });

  it('fails statements with 503 store_unavailable naming no address nor password; /health-writable is false', async () => {
    // A loopback port with nothing listening: take a free port, then close it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const seen: string[] = [];
    const store = new PostgresStore({
      ...DEFAULTS, url: `postgres://postgres:s3cret-pw@127.0.0.1:${port}/test`, onUnavailable: (_e, reason) => seen.push(reason),
    });
    try {
      const error = await rejection(store.run('INSERT INTO t VALUES (?)', ['a']));
      expect(error.status).to.equal(503);
      expect(error.code).to.equal('store_unavailable');
      expect(error.message).to.equal('the record store (PostgreSQL) is unavailable: cannot reach the server (ECONNREFUSED); try again shortly');
      expect(error.message).to.not.contain('s3cret');
      expect(await store.writable()).to.equal(false);
      expect(seen).to.include('cannot reach the server (ECONNREFUSED)');
      await rejection(store.transaction(async () => undefined)).then((e) => expect(e.code).to.equal('store_unavailable'));
    } finally {
      await store.close();
    }
  });

  it('answers 503 while the connection is cut and serves again when it comes back, with no restart', async () => {
    const target = new URL(testDatabaseUrl()!);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const schema = await freshSchema();
    const via = new URL(testDatabaseUrl()!);
    via.port = String(proxy.port);
    const store = new PostgresStore({ ...DEFAULTS, connectTimeoutMs: 500, url: urlWithSchema(via.toString(), schema.name) });
    try {
      await store.migrate('t', ['CREATE TABLE t (id TEXT PRIMARY KEY)']);
      await store.run('INSERT INTO t VALUES (?)', ['before']);
      proxy.cut();
      const write = await rejection(store.run('INSERT INTO t VALUES (?)', ['during']));
      expect(write.status).to.equal(503);
      expect(write.code).to.equal('store_unavailable');
      expect(await store.writable()).to.equal(false);
      await rejection(store.get('SELECT id FROM t'));
      proxy.restore();
      expect(await store.writable()).to.equal(true);
      await store.run('INSERT INTO t VALUES (?)', ['after']);
      expect(await store.all('SELECT id FROM t ORDER BY id')).to.deep.equal([{ id: 'after' }, { id: 'before' }]);
    } finally {
      await store.close();
      await proxy.close();
      await schema.drop();
    }
  });
});
