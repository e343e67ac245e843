/**
 * Service interfaces for state that outlives a request. Implementations are plugins:
 * the embedded SQLite store by default, PostgreSQL / Redis when several instances share state.
 */

/** The SQL a record store speaks, for the few statements that cannot be written once for both. */
export type SqlDialect = 'sqlite' | 'postgres';

/** A migration step: one SQL text for every dialect, or one text per dialect. */
export type MigrationStep = string | { readonly [D in SqlDialect]: string };

/** The text of `step` in `dialect`. */
export function stepSql(step: MigrationStep, dialect: SqlDialect): string {
  return typeof step === 'string' ? step : step[dialect];
}

/** Statements against a record store. SQL uses `?` placeholders; an implementation translates if it must. */
export interface RecordQueries {
  readonly dialect: SqlDialect;
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/**
 * A relational record store. A store that cannot be reached fails its statements with
 * `Errors.storeUnavailable` (503 `store_unavailable`); other errors (constraints, SQL) pass unchanged.
 */
export interface RecordStore extends RecordQueries {
  readonly kind: string;
  /**
   * Applies the not-yet-applied steps of `owner`'s migrations, in order, each once, and records
   * them. Steps are append-only: a step's index is its version.
   */
  migrate(owner: string, steps: readonly MigrationStep[]): Promise<void>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Only the
   * `tx` given to `fn` is inside the transaction; other statements wait or run outside it.
   */
  transaction<T>(fn: (tx: RecordQueries) => Promise<T>): Promise<T>;
  /** Whether the store can be written to right now. */
  writable(): Promise<boolean>;
  /**
   * Optional: where bulk appends (request logs) go when the store can run them off the event loop
   * (SQLite: a worker thread with its own connection). Without it, callers use `run`.
   */
  readonly batchWriter?: BatchWriter;
}

/** One statement of a batch. */
export interface BatchStatement {
  readonly sql: string;
  /** Strings, finite numbers and null (a writer may carry them as JSON to another thread). */
  readonly params: readonly unknown[];
}

/** Runs batches of statements away from the caller's thread. */
export interface BatchWriter {
  /**
   * Runs `statements` in order, in one transaction; resolves once committed (from then on the
   * store's own reads see the rows), rejects when the batch was not written (nothing of it was).
   */
  write(statements: readonly BatchStatement[]): Promise<void>;
}

/** Encrypts small secrets at rest (`Services.SecretBox`, provided by security.secret-box). */
export interface SecretBox {
  /** Seals `plaintext`; `context`, when given, must be given again to open it. */
  encrypt(plaintext: string, context?: string): string;
  /** Opens a sealed value; throws when the key, the context or the data do not match. */
  decrypt(sealed: string, context?: string): string;
}
