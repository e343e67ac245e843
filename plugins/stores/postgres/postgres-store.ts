/**
 * The PostgreSQL record store (node-postgres): a bounded pool, `?` placeholders numbered for
 * PostgreSQL, named prepared statements for SQL that repeats, transactions on one pooled
 * connection, and migrations under an advisory lock so instances starting together migrate once.
 * A store that cannot be reached fails statements with Errors.storeUnavailable (503).
 */
import pg from 'pg';
import { Errors, isGatewayError, stepSql, type MigrationStep, type RecordQueries, type RecordStore } from '../../../core/index.js';
import { numberPlaceholders } from './placeholders.js';
import { unavailableReason } from './unavailable.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database (a `?options=-c search_path=...` is honoured). */
  url: string;
  /** Most connections open at once; statements beyond wait for one (up to connectTimeoutMs). */
  maxConnections: number;
  /** A statement running longer is cancelled by the server (and answers 503). */
  statementTimeoutMs: number;
  /** How long a statement waits to connect or for a free connection. */
  connectTimeoutMs: number;
  /** An idle connection is closed after this long. */
  idleTimeoutMs: number;
  /** A schema to use (made when missing) instead of the connection's search_path. */
  schema?: string;
  /** Told each time the store is found unreachable (the plugin logs it, rate-limited). */
  onUnavailable?: (error: unknown, reason: string) => void;
}

const INT8 = 20;
const NUMERIC = 1700;

/** int8 (COUNT, SUM, BIGINT columns) as a number while it is exact, else as the text pg gives. */
function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** Statements seen this many times are prepared by name on each connection. */
const PREPARE_AFTER_USES = 2;
/** Distinct SQL texts remembered (translation and name); beyond, statements are translated each time. */
const MAX_REMEMBERED_STATEMENTS = 2000;

interface Statement {
  text: string;
  uses: number;
  name?: string;
}

/** `/health` does not wait longer for the store (a server that stopped answering is not healthy). */
const HEALTH_TIMEOUT_MS = 2_000;

/** A migration step's lock key: one per schema, so separate schemas migrate side by side. */
const LOCK_KEY_SQL = "hashtext('gw.migrate:' || current_schema())";

export class PostgresStore implements RecordStore {
  readonly kind = 'postgres';
  readonly dialect = 'postgres';
  readonly pool: pg.Pool;
  readonly #statements = new Map<string, Statement>();
  #named = 0;

  constructor(private readonly options: PostgresStoreOptions) {
    const timeouts = {
      statement_timeout: options.statementTimeoutMs,
      // Client side, for a server that stops answering at all (the statement timeout cannot fire then).
      query_timeout: options.statementTimeoutMs + options.connectTimeoutMs,
      // A transaction left open by a lost client must not hold its locks for long.
      idle_in_transaction_session_timeout: Math.max(options.statementTimeoutMs, 10_000),
    };
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: options.idleTimeoutMs,
      keepAlive: true,
      application_name: 'gw',
      ...timeouts,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      types: { getTypeParser: ((oid: number, format?: string) => {
        if (oid === INT8) return parseInt8;
        if (oid === NUMERIC) return parseFloat;
        return pg.types.getTypeParser(oid, format as 'text');
      }) as typeof pg.types.getTypeParser },
    });
    // An idle connection that breaks (server restart, network) is dropped from the pool; without a
    // listener node would treat the event as an uncaught error.
    this.pool.on('error', (error) => this.#unavailable(error));
  }

  /** Makes the configured schema when it is missing (before any migration). */
  async open(): Promise<void> {
    if (this.options.schema) await this.#query(this.pool, `CREATE SCHEMA IF NOT EXISTS "${this.options.schema}"`, []);
  }

  async migrate(owner: string, steps: readonly MigrationStep[]): Promise<void> {
    const client = await this.#connect();
    let broken: Error | undefined;
    try {
      await this.#query(client, `SELECT pg_advisory_lock(${LOCK_KEY_SQL})`, []);
      try {
        await this.#query(client, 'CREATE TABLE IF NOT EXISTS _migrations (owner TEXT NOT NULL, step INTEGER NOT NULL, applied_at BIGINT NOT NULL, PRIMARY KEY (owner, step))', []);
        const { rows } = await this.#query(client, 'SELECT COALESCE(MAX(step), -1) AS last FROM _migrations WHERE owner = ?', [owner]);
        const from = Number(rows[0]!['last']) + 1;
        if (from < steps.length) {
          await this.#query(client, 'BEGIN', []);
          try {
            for (let step = from; step < steps.length; step++) {
              await this.#query(client, stepSql(steps[step]!, 'postgres'), []);
              await this.#query(client, 'INSERT INTO _migrations (owner, step, applied_at) VALUES (?, ?, ?)', [owner, step, Math.floor(Date.now() / 1000)]);
            }
            await this.#query(client, 'COMMIT', []);
          } catch (e) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw e;
          }
        }
      } finally {
        await this.#query(client, `SELECT pg_advisory_unlock(${LOCK_KEY_SQL})`, []).catch((e: Error) => (broken = e));
      }
    } catch (e) {
      if (isGatewayError(e) && e.code === 'store_unavailable') broken ??= e;
      throw e;
    } finally {
      // A connection that failed or kept the lock is closed (which releases the lock) rather than reused.
      client.release(broken);
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<{ changes: number }> {
    return { changes: (await this.#query(this.pool, sql, params)).rowCount ?? 0 };
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.#query(this.pool, sql, params)).rows[0] as T | undefined;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.#query(this.pool, sql, params)).rows as T[];
  }

  async transaction<T>(fn: (tx: RecordQueries) => Promise<T>): Promise<T> {
    const client = await this.#connect();
    const tx: RecordQueries = {
      dialect: 'postgres',
      run: async (sql, params = []) => ({ changes: (await this.#query(client, sql, params)).rowCount ?? 0 }),
      get: async <R>(sql: string, params: readonly unknown[] = []) => (await this.#query(client, sql, params)).rows[0] as R | undefined,
      all: async <R>(sql: string, params: readonly unknown[] = []) => (await this.#query(client, sql, params)).rows as R[],
    };
    let broken: Error | undefined;
    try {
      await this.#query(client, 'BEGIN', []);
      try {
        const result = await fn(tx);
        await this.#query(client, 'COMMIT', []);
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw e;
      }
    } catch (e) {
      if ((isGatewayError(e) && e.code === 'store_unavailable') || unavailableReason(e) !== undefined) broken ??= e as Error;
      throw e;
    } finally {
      // A connection whose state is unknown is closed rather than given to the next caller.
      client.release(broken);
    }
  }

  /** True when a statement that writes could run now: a primary answering within HEALTH_TIMEOUT_MS. */
  async writable(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, HEALTH_TIMEOUT_MS, false)));
    const answer = this.get<{ writable: boolean }>('SELECT NOT pg_is_in_recovery() AS writable')
      .then((row) => row?.writable === true, () => false);
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async #connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (e) {
      throw this.#wrap(e);
    }
  }

  async #query(on: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    // PostgreSQL text cannot hold U+0000 (SQLite's can): a 400 rather than the server's error as a 500.
    for (let i = 0; i < params.length; i++) {
      if (typeof params[i] === 'string' && (params[i] as string).includes('\0')) {
        throw Errors.invalidRequest('a text value contains a NUL character (U+0000), which the record store cannot hold', null, 'invalid_text');
      }
    }
    const statement = this.#statement(sql);
    try {
      return await on.query({ name: statement.name, text: statement.text, values: params as unknown[] });
    } catch (e) {
      throw this.#wrap(e);
    }
  }

  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = { text: numberPlaceholders(sql), uses: 0 };
      if (this.#statements.size < MAX_REMEMBERED_STATEMENTS) this.#statements.set(sql, statement);
    }
    // Only statements with parameters are named (transaction control and DDL are not prepared).
    // Names are never reused for another text: pg refuses a name prepared with a different one.
    if (++statement.uses === PREPARE_AFTER_USES && statement.text !== sql && this.#statements.get(sql) === statement) {
      statement.name = `gw_${++this.#named}`;
    }
    return statement;
  }

  #wrap(error: unknown): unknown {
    const reason = unavailableReason(error);
    if (reason === undefined) return error;
    this.#unavailable(error, reason);
    return Errors.storeUnavailable('PostgreSQL', reason);
  }

  #unavailable(error: unknown, reason = unavailableReason(error) ?? 'the connection failed'): void {
    this.options.onUnavailable?.(error, reason);
  }
}
