/**
 * The SQLite store's BatchWriter: batches run in a worker thread (batch-worker.ts) on its own
 * connection, so their inserts, page writes and checkpoints never hold the event loop. In WAL
 * mode the store's connection reads every committed batch; a batch resolves once committed.
 *
 * The thread starts at the first batch. When it dies (a crash, an error at open), the batches it
 * held are rejected (a transaction commits whole or not at all: none was half-written) and the
 * next batch starts a new one. It holds the process open only while batches are in flight.
 * The thread is ended by asking it (close), never by `terminate()`: terminating a thread inside a
 * SQLite call aborts the whole process (better-sqlite3 throws into a dying isolate). SQLite allows
 * one writer at a time: a write on the store's own connection may wait for a batch's commit.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { BatchStatement, BatchWriter } from '../../../core/index.js';
import type { WireStatement, WorkerAnswer, WorkerRequest, WorkerSetup } from './batch-worker.js';

const WORKER_URL = new URL('./batch-worker.js', import.meta.url);
/** Statement texts remembered per thread; beyond, a text is sent with each batch (callers repeat a few). */
const MAX_REMEMBERED = 256;

interface Pending {
  resolve(): void;
  reject(error: Error): void;
  /** Statement texts this batch carried to the thread. */
  carried: number[];
}

export interface WorkerBatchWriterOptions {
  file: string;
  /** A batch waits this long for another connection's write lock before it fails. */
  busyTimeoutMs: number;
  /** Told when the thread stops unasked (the plugin logs it). */
  onStopped?: (error: Error) => void;
}

export class WorkerBatchWriter implements BatchWriter {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  readonly #refs = new Map<string, number>();
  /** Texts the current thread has prepared. */
  #sent = new Set<number>();
  #nextId = 0;
  #closed = false;
  #idle: Promise<void> = Promise.resolve();
  #markIdle: () => void = () => undefined;

  constructor(private readonly options: WorkerBatchWriterOptions) {}

  /** The current thread, if one runs (diagnostics and tests). */
  get worker(): Worker | undefined {
    return this.#worker;
  }

  write(statements: readonly BatchStatement[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the SQLite batch writer is closed'));
    if (statements.length === 0) return Promise.resolve();
    // Started first: a new thread has prepared nothing, so the batch must carry its statement texts.
    const worker = this.#worker ?? this.#start();
    const wire = new Array<WireStatement>(statements.length);
    const carried: number[] = [];
    try {
      for (let i = 0; i < statements.length; i++) wire[i] = this.#wire(statements[i]!, carried);
    } catch (e) {
      for (const ref of carried) this.#sent.delete(ref);
      return Promise.reject(e as Error); // a value JSON cannot write (BigInt)
    }
    const id = ++this.#nextId;
    return new Promise<void>((resolve, reject) => {
      if (this.#pending.size === 0) {
        worker.ref();
        this.#idle = new Promise((r) => (this.#markIdle = r));
      }
      this.#pending.set(id, { resolve, reject, carried });
      worker.postMessage({ type: 'batch', id, statements: wire } satisfies WorkerRequest);
    });
  }

  /** Lets the batches in flight finish, then closes the thread's connection and ends it. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#idle;
    const worker = this.#worker;
    if (!worker) return;
    worker.ref();
    const exited = once(worker, 'exit');
    worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    await exited;
  }

  #wire(statement: BatchStatement, carried: number[]): WireStatement {
    let ref = this.#refs.get(statement.sql);
    if (ref === undefined && this.#refs.size < MAX_REMEMBERED) {
      ref = this.#refs.size;
      this.#refs.set(statement.sql, ref);
    }
    const params = JSON.stringify(statement.params);
    if (ref === undefined) return [-1, params, statement.sql];
    if (this.#sent.has(ref)) return [ref, params];
    this.#sent.add(ref);
    carried.push(ref);
    return [ref, params, statement.sql];
  }

  #start(): Worker {
    const setup: WorkerSetup = { file: this.options.file, busyTimeoutMs: this.options.busyTimeoutMs };
    const worker = new Worker(WORKER_URL, { workerData: setup });
    worker.unref();
    this.#worker = worker;
    this.#sent = new Set();
    worker.on('message', (answer: WorkerAnswer) => this.#answered(worker, answer));
    worker.on('error', (e) => this.#stopped(worker, e));
    worker.on('exit', (code) => this.#stopped(worker, new Error(`the SQLite writer thread exited (code ${code})`)));
    return worker;
  }

  #answered(worker: Worker, answer: WorkerAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (answer.error) {
      // A batch that failed may not have got its texts prepared (a bad statement): send them again.
      for (const ref of pending.carried) this.#sent.delete(ref);
      pending.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    } else {
      pending.resolve();
    }
    if (this.#pending.size === 0) {
      worker.unref();
      this.#markIdle();
    }
  }

  /** The thread ended: asked to (close), or not (every batch it held is rejected; the next write starts another). */
  #stopped(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const unasked = !this.#closed || this.#pending.size > 0;
    for (const pending of this.#pending.values()) pending.reject(new Error(`the SQLite writer thread stopped: ${error.message}`));
    this.#pending.clear();
    this.#markIdle();
    if (unasked) this.options.onStopped?.(error);
  }
}
