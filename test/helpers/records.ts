/**
 * Reads and writes a gateway's records from outside it, on whichever store the test run uses: the
 * data folder's gw.db on the SQLite pass, the data folder's schema on the PostgreSQL pass.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { RecordQueries } from '../../core/index.js';
import { PostgresStore } from '../../plugins/stores/postgres/postgres-store.js';
import { onPostgres, schemaOfDataDir } from './pg-schema.js';

export interface Records extends RecordQueries {
  close(): Promise<void>;
}

export async function openRecords(dataDir: string): Promise<Records> {
  if (onPostgres()) {
    const store = new PostgresStore({
      url: (await schemaOfDataDir(dataDir)).url, maxConnections: 2, statementTimeoutMs: 10_000, connectTimeoutMs: 5_000, idleTimeoutMs: 10_000,
    });
    return { dialect: 'postgres', run: (s, p) => store.run(s, p), get: (s, p) => store.get(s, p), all: (s, p) => store.all(s, p), close: () => store.close() };
  }
  const db = new Database(join(dataDir, 'gw.db'));
  return {
    dialect: 'sqlite',
    run: async (sql, params = []) => ({ changes: db.prepare(sql).run(...params).changes }),
    get: async <T>(sql: string, params: readonly unknown[] = []) => db.prepare(sql).get(...params) as T | undefined,
    all: async <T>(sql: string, params: readonly unknown[] = []) => db.prepare(sql).all(...params) as T[],
    close: async () => void db.close(),
  };
}

/** Runs `fn` on the records of `dataDir`, closing them after. */
export async function withRecords<T>(dataDir: string, fn: (records: Records) => Promise<T>): Promise<T> {
  const records = await openRecords(dataDir);
  try {
    return await fn(records);
  } finally {
    await records.close();
  }
}
