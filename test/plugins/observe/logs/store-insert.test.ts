/**
 * LogStore.insert on both record stores: SQLite (multi-row INSERTs through the writer thread) and
 * PostgreSQL (one `unnest` statement per batch; skipped without GW_DATABASE_URL). Every batch size,
 * nulls and text that array literals must escape come back as they went in; NUL is replaced on PostgreSQL.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordStore } from '../../../../core/index.js';
import { LogStore } from '../../../../plugins/observe/logs/store.js';
import { COLUMNS } from '../../../../plugins/observe/logs/schema.js';
import { PostgresStore } from '../../../../plugins/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';
import { freshSchema, testDatabaseUrl, type TestSchema } from '../../../helpers/pg-schema.js';

const TRICKY = ['', 'NULL', 'a\\b"c', '{x,y}', 'line\nbreak', 'ünï 😀', "it's"];

function row(i: number, text: string | null): unknown[] {
  const values: Record<string, unknown> = {
    id: `id-${String(i).padStart(6, '0')}`, created_at: 1_700_000_000_000 + i, method: 'POST', path: '/v1/chat/completions',
    status: 200, stream: i % 2, latency_ms: 1.25 + i, retry_count: 0, metadata: text, cost: i % 3 === 0 ? null : i / 1000,
    prompt_tokens: i, upstream_latency_ms: null,
  };
  return COLUMNS.map((c) => values[c] ?? null);
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`observe.logs store: batch inserts on ${kind}`, () => {
    let store: RecordStore & { close(): Promise<void> | void };
    let logs: LogStore;
    let dir: string | undefined;
    let schema: TestSchema | undefined;

    before(async function () {
      if (kind === 'postgres') {
        const url = testDatabaseUrl();
        if (!url) return this.skip();
        schema = await freshSchema(url);
        const pgStore = new PostgresStore({ url: schema.url, maxConnections: 2, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000, idleTimeoutMs: 10_000 });
        store = pgStore;
      } else {
        dir = await mkdtemp(join(tmpdir(), 'gw-log-insert-'));
        store = new SqliteStore(join(dir, 'gw.db'));
      }
      logs = new LogStore(store);
      await logs.init(false);
    });
    after(async () => {
      await store?.close();
      await schema?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('writes batches of every size, nulls and tricky text as they were', async () => {
      let i = 0;
      for (const size of [1, 3, 300]) {
        await logs.insert(Array.from({ length: size }, () => {
          const n = i++;
          return row(n, n % 5 === 4 ? null : TRICKY[n % TRICKY.length]!);
        }));
      }
      const rows = await store.all<{ id: string; created_at: number; metadata: string | null; cost: number | null; stream: number; latency_ms: number; upstream_latency_ms: number | null }>(
        'SELECT id, created_at, metadata, cost, stream, latency_ms, upstream_latency_ms FROM request_logs ORDER BY id',
      );
      expect(rows).to.have.length(304);
      for (const [n, r] of rows.entries()) {
        const expected = row(Number(r.id.slice(3)), null);
        expect(r.created_at).to.equal(expected[COLUMNS.indexOf('created_at')]);
        expect(r.cost).to.equal(expected[COLUMNS.indexOf('cost')]);
        expect(r.stream).to.equal(expected[COLUMNS.indexOf('stream')]);
        expect(r.latency_ms).to.equal(expected[COLUMNS.indexOf('latency_ms')]);
        expect(r.upstream_latency_ms).to.equal(null);
        expect(r.metadata === null || TRICKY.includes(r.metadata), `row ${n}: ${r.metadata}`).to.equal(true);
      }
      expect(new Set(rows.map((r) => r.metadata))).to.deep.equal(new Set([...TRICKY, null]));
    });

    it('keeps the rest of a text with NUL in it (PostgreSQL text cannot hold U+0000)', async () => {
      const nul = row(900_000, 'before\0after');
      await logs.insert([nul]);
      const got = await store.get<{ metadata: string }>('SELECT metadata FROM request_logs WHERE id = ?', [nul[0]]);
      expect(got?.metadata).to.equal(kind === 'postgres' ? 'before\uFFFDafter' : 'before\0after');
    });
  });
}
