/**
 * The thread behind batch-writer.ts: its own connection to the database file, one IMMEDIATE
 * transaction per batch (all of it or none), one answer per batch. Statement texts come once per
 * thread and are prepared once.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface WorkerSetup {
  file: string;
  busyTimeoutMs: number;
}

/**
 * A statement: the number of its text, its parameters as JSON, and its text when the thread has not
 * seen it. One string crosses to the thread far cheaper than an array of thousands of values.
 */
export type WireStatement = [ref: number, params: string, sql?: string];

export type WorkerRequest = { type: 'batch'; id: number; statements: WireStatement[] } | { type: 'close' };

export interface WorkerAnswer {
  id: number;
  error?: { message: string; code?: string };
}

const setup = workerData as WorkerSetup;
const port = parentPort!;
const db = new Database(setup.file);
// WAL mode belongs to the file (the store set it); these belong to the connection.
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${setup.busyTimeoutMs}`);
// A batch's statement journal in memory: on disk it was a temporary file made and unlinked per batch.
db.pragma('temp_store = MEMORY');

const prepared = new Map<number, Database.Statement>();

/**
 * The batch's statements. Every text it carries is prepared before any runs: the sender counts them
 * as sent even when the batch fails at its first statement.
 */
function statementsOf(wire: readonly WireStatement[]): Database.Statement[] {
  const carried = wire.map(([ref, , sql]) => {
    if (sql === undefined) return undefined;
    const statement = db.prepare(sql);
    if (ref >= 0) prepared.set(ref, statement);
    return statement;
  });
  return carried.map((statement, i) => {
    const found = statement ?? prepared.get(wire[i]![0]);
    if (!found) throw new Error(`statement ${wire[i]![0]} was never sent to the writer thread`);
    return found;
  });
}

/** A statement's parameters; an object or array among them is refused, as better-sqlite3 refuses one inside an array. */
function paramsOf(json: string): unknown[] {
  const params = JSON.parse(json) as unknown[];
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (typeof value === 'object' && value !== null) throw new TypeError('a batch parameter is an object or an array, not a value');
  }
  return params;
}

const runBatch = db.transaction((statements: Database.Statement[], wire: readonly WireStatement[]) => {
  // Spread: better-sqlite3 reads an array's elements by a generic property lookup each, arguments directly.
  for (let i = 0; i < statements.length; i++) statements[i]!.run(...paramsOf(wire[i]![1]));
});

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let answer: WorkerAnswer;
  try {
    runBatch.immediate(statementsOf(request.statements), request.statements);
    answer = { id: request.id };
  } catch (e) {
    const error = e as { message?: unknown; code?: unknown };
    answer = { id: request.id, error: { message: String(error.message ?? e), code: typeof error.code === 'string' ? error.code : undefined } };
  }
  port.postMessage(answer);
});
