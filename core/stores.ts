/**
 * Service interfaces for state that outlives a request. Implementations are plugins:
 * the embedded SQLite store by default, PostgreSQL / Redis when several instances share state.
 */

/** A relational record store. SQL uses `?` placeholders; an implementation translates if it must. */
export interface RecordStore {
  readonly kind: string;
  /** Applies the not-yet-applied steps of `owner`'s migrations, in order, each once. */
  migrate(owner: string, steps: readonly string[]): Promise<void>;
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Whether the store can be written to right now. */
  writable(): Promise<boolean>;
}

/** Encrypts small secrets at rest (Tokens.SecretBox, provided by security.secret-box). */
export interface SecretBox {
  /** Seals `plaintext`; `context`, when given, must be given again to open it. */
  encrypt(plaintext: string, context?: string): string;
  /** Opens a sealed value; throws when the key, the context or the data do not match. */
  decrypt(sealed: string, context?: string): string;
}
