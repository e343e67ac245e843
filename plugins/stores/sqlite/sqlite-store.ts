/**
 * The embedded record store: one SQLite file in WAL mode. better-sqlite3 is synchronous; each call
 * is a prepared statement (cached) that touches pages already in the OS cache, and hot-path readers
 * keep their own in-memory caches so that steady-state requests never reach it. Bulk appends
 * (request logs) go to `batchWriter`, a worker thread with its own connection (batch-writer.ts).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { stepSql, type MigrationStep, type RecordQueries, type RecordStore } from '../../../core/index.js';
import { WorkerBatchWriter } from './batch-writer.js';
import { createPrivateFile, databaseFiles, tightenModes } from './file-modes.js';

/** The writer thread waits longer than the event loop would for another connection's write lock: it blocks no request. */
const WRITER_BUSY_TIMEOUT_MS = 30_000;

export interface SqliteStoreOptions {
  /** Told when the batch writer's thread stops unasked (it restarts at the next batch). */
  onWriterStopped?: (error: Error) => void;
}

export class SqliteStore implements RecordStore {
  readonly kind = 'sqlite';
  readonly dialect = 'sqlite';
  readonly db: Database.Database;
  readonly batchWriter: WorkerBatchWriter;
  readonly #statements = new Map<string, Database.Statement>();
  /**
   * Set while a transaction holds the one connection: its statements run between awaits of an
   * async function, so every other statement waits until it ends rather than landing inside it.
   */
  #held: Promise<void> | undefined;
  /** The statements of the transaction in progress, which do not wait for it. */
  readonly #tx: RecordQueries = {
    dialect: 'sqlite',
    run: async (sql, params = []) => ({ changes: this.#prepare(sql).run(...params).changes }),
    get: async <T>(sql: string, params: readonly unknown[] = []) => this.#prepare(sql).get(...params) as T | undefined,
    all: async <T>(sql: string, params: readonly unknown[] = []) => this.#prepare(sql).all(...params) as T[],
  };

  /** Files found readable by group or others and set to 0600 at open (the plugin warns about them). */
  readonly tightened: { file: string; was: string }[];

  constructor(readonly file: string, options: SqliteStoreOptions = {}) {
    mkdirSync(dirname(file), { recursive: true });
    createPrivateFile(file);
    this.db = new Database(file);
    // 16 KiB pages for a new file (an existing one keeps its size: WAL files cannot change it).
    // Request-log rows are written in batches of hundreds: in WAL mode every page is written as
    // its own frame, so bigger pages mean fewer writes.
    this.db.pragma('page_size = 16384');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    // After WAL mode is on, so that the -wal and -shm files exist and are checked too.
    this.tightened = tightenModes(databaseFiles(file));
    this.batchWriter = new WorkerBatchWriter({ file, busyTimeoutMs: WRITER_BUSY_TIMEOUT_MS, onStopped: options.onWriterStopped });
    this.db.exec('CREATE TABLE IF NOT EXISTS _migrations (owner TEXT NOT NULL, step INTEGER NOT NULL, applied_at INTEGER NOT NULL, PRIMARY KEY (owner, step))');
  }

  async migrate(owner: string, steps: readonly MigrationStep[]): Promise<void> {
    while (this.#held) await this.#held;
    // Read and applied in one IMMEDIATE transaction: processes sharing the file (workers) migrate once.
    const apply = this.db.transaction(() => {
      const applied = this.db.prepare('SELECT COALESCE(MAX(step), -1) AS last FROM _migrations WHERE owner = ?').get(owner) as { last: number };
      for (let step = applied.last + 1; step < steps.length; step++) {
        this.db.exec(stepSql(steps[step]!, 'sqlite'));
        this.db.prepare('INSERT INTO _migrations (owner, step, applied_at) VALUES (?, ?, ?)').run(owner, step, Math.floor(Date.now() / 1000));
      }
    });
    apply.immediate();
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<{ changes: number }> {
    while (this.#held) await this.#held;
    return { changes: this.#prepare(sql).run(...params).changes };
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    while (this.#held) await this.#held;
    return this.#prepare(sql).get(...params) as T | undefined;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    while (this.#held) await this.#held;
    return this.#prepare(sql).all(...params) as T[];
  }

  async transaction<T>(fn: (tx: RecordQueries) => Promise<T>): Promise<T> {
    while (this.#held) await this.#held;
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => (release = resolve));
    try {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.#tx);
        this.db.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.#held = undefined;
      release();
    }
  }

  async writable(): Promise<boolean> {
    while (this.#held) await this.#held;
    try {
      this.db.prepare('BEGIN IMMEDIATE').run();
      this.db.prepare('ROLLBACK').run();
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the connection, then lets the writer thread finish its batches and end. */
  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return this.batchWriter.close();
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
