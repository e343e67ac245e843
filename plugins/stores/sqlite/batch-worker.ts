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

/** A statement: the number of its text, its parameters, and its text when the thread has not seen it. */
export type WireStatement = [ref: number, params: readonly unknown[], sql?: string];

export type WorkerRequest = { type: 'batch'; id: number; statements: WireStatement[] } | { type: 'close' };

export interface WorkerAnswer {
  id: number;
  error?: { message: string; code?: string };
}

const setup = workerData as WorkerSetup;
const port = parentPort!;
const db = new Database(setup.file);
// WAL mode belongs to the file (the store set it); these two belong to the connection.
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${setup.busyTimeoutMs}`);

const prepared = new Map<number, Database.Statement>();

function statementOf([ref, , sql]: WireStatement): Database.Statement {
  if (sql !== undefined) {
    const statement = db.prepare(sql);
    if (ref >= 0) prepared.set(ref, statement);
    return statement;
  }
  const statement = prepared.get(ref);
  if (!statement) throw new Error(`statement ${ref} was never sent to the writer thread`);
  return statement;
}

const runBatch = db.transaction((statements: WireStatement[]) => {
  for (const s of statements) statementOf(s).run(s[1]);
});

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'close') {
    db.close();
    port.close();
    return;
  }
  let answer: WorkerAnswer;
  try {
    runBatch.immediate(request.statements);
    answer = { id: request.id };
  } catch (e) {
    const error = e as { message?: unknown; code?: unknown };
    answer = { id: request.id, error: { message: String(error.message ?? e), code: typeof error.code === 'string' ? error.code : undefined } };
  }
  port.postMessage(answer);
});
