/**
 * The PostgreSQL pass of the suite (GW_TEST_RECORD_STORE=postgres with GW_DATABASE_URL): each test
 * gateway or store gets a schema of its own, so none sees another's rows, dropped when it stops.
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';

/** Whether tests run their gateways on PostgreSQL. */
export function onPostgres(): boolean {
  return process.env['GW_TEST_RECORD_STORE'] === 'postgres' && !!process.env['GW_DATABASE_URL'];
}

/** The database tests may use, or undefined when GW_DATABASE_URL is unset (PostgreSQL tests skip then). */
export function testDatabaseUrl(): string | undefined {
  return process.env['GW_DATABASE_URL'] || undefined;
}

export interface TestSchema {
  name: string;
  /** The database URL with `search_path` set to this schema. */
  url: string;
  drop(): Promise<void>;
}

/** URL with `search_path` set to `schema` (node-postgres passes `options` to the server). */
export function urlWithSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function freshSchema(url = testDatabaseUrl()): Promise<TestSchema> {
  if (!url) throw new Error('GW_DATABASE_URL is not set');
  const name = `gw_t_${randomBytes(6).toString('hex')}`;
  await admin(url, `CREATE SCHEMA ${name}`);
  return {
    name,
    url: urlWithSchema(url, name),
    drop: () => admin(url, `DROP SCHEMA IF EXISTS ${name} CASCADE`),
  };
}

/**
 * The schema of a data folder: gateways started on one data folder (two instances, or a restart
 * after a crash) share their records on the PostgreSQL pass as they share gw.db on the SQLite one.
 * Made when missing; `drop` removes it (the run's database is dropped at the end anyway).
 */
export async function schemaOfDataDir(dataDir: string, url = testDatabaseUrl()): Promise<TestSchema> {
  if (!url) throw new Error('GW_DATABASE_URL is not set');
  const name = `gw_d_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  // Two gateways on one folder may start together: a racing CREATE is as good as our own.
  await admin(url, `CREATE SCHEMA IF NOT EXISTS ${name}`).catch((e: { code?: string }) => {
    if (e.code !== '23505' && e.code !== '42P06') throw e;
  });
  return { name, url: urlWithSchema(url, name), drop: () => admin(url, `DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}

/** Runs one statement on its own connection (schemas, databases). */
export async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
