/**
 * Off the request path: entries wait in a bounded queue (oldest shed under overload, counted) and
 * are written in batches, every `flushIntervalMs` or as soon as a batch is full, one batch at a
 * time. Between batches the recorder yields to the event loop, so a backlog never starves requests.
 * A batch that fails to write is counted and dropped (the store is down: retrying would only grow
 * the backlog); a warning is logged at most every 10 seconds.
 */
import type { Logger } from '../../../core/index.js';
import { toRow, type PendingLog, type RowOptions } from './entry.js';
import type { Pricing } from '../../policies/usage-limits/contract.js';
import { uuidv7 } from './ids.js';
import { DropOldestQueue } from './queue.js';
import type { LogStore } from './store.js';
import type { Usage } from './usage.js';


/** What listeners (metrics) learn of each recorded request, once its batch is built. */
export interface RecordedLog {
  readonly id: string;
  readonly provider: string | null;
  readonly model: string | null;
  readonly status: number;
  readonly latencyMs: number;
  readonly upstreamMs: number | null;
  readonly usage: Usage | undefined;
  readonly cost: number | null;
  readonly cacheStatus: string | null;
}

export type RecordListener = (logs: readonly RecordedLog[]) => void;

export interface RecorderStats {
  /** Entries waiting to be written. */
  queued: number;
  capacity: number;
  /** Entries shed because the queue was full. */
  dropped: number;
  written: number;
  /** Entries lost because their batch failed to write. */
  failed: number;
}

export interface RecorderOptions {
  capacity: number;
  batchSize: number;
  flushIntervalMs: number;
  rows: RowOptions;
  /** The usage-limits plugin's price table, when loaded. */
  pricing: () => Pricing | undefined;
}

const WARNING_INTERVAL_MS = 10_000;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Recorder {
  readonly #queue: DropOldestQueue<PendingLog>;
  readonly #listeners = new Set<RecordListener>();
  readonly #timer: NodeJS.Timeout;
  #flushing: Promise<void> | undefined;
  #scheduled = false;
  #written = 0;
  #failed = 0;
  #warnedAt = -Infinity;

  constructor(private readonly store: LogStore, private readonly options: RecorderOptions, private readonly logger: Logger) {
    this.#queue = new DropOldestQueue<PendingLog>(options.capacity);
    this.#timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.#timer.unref();
  }

  push(entry: PendingLog): void {
    this.#queue.push(entry);
    if (this.#queue.size >= this.options.batchSize && !this.#flushing && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.flush();
      });
    }
  }

  /** Writes everything queued; resolves when the queue is empty (or the current drain ended). */
  flush(): Promise<void> {
    if (this.#flushing) return this.#flushing;
    if (this.#queue.size === 0) return Promise.resolve();
    this.#flushing = this.#drain().finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  onRecords(listener: RecordListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  stats(): RecorderStats {
    return { queued: this.#queue.size, capacity: this.#queue.capacity, dropped: this.#queue.dropped, written: this.#written, failed: this.#failed };
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
    // Entries that arrived while the last drain was writing.
    if (this.#queue.size > 0) await this.flush();
  }

  async #drain(): Promise<void> {
    while (this.#queue.size > 0) {
      await this.#write(this.#queue.take(this.options.batchSize));
      if (this.#queue.size > 0) await yieldToLoop();
    }
  }

  async #write(batch: readonly PendingLog[]): Promise<void> {
    const pricing = this.options.pricing();
    const rows: unknown[][] = new Array(batch.length);
    const recorded: RecordedLog[] = new Array(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const entry = batch[i]!;
      const id = uuidv7(entry.createdAt);
      const cost = costOf(pricing, entry);
      try {
        rows[i] = toRow(entry, id, cost, this.options.rows);
      } catch (e) {
        // A body that cannot be serialised must not lose the rest of the row.
        this.#warn(e, 'request log: a body could not be recorded');
        rows[i] = toRow({ ...entry, requestBody: undefined, responseBody: undefined }, id, cost, this.options.rows);
      }
      recorded[i] = {
        id, provider: entry.provider, model: entry.model, status: entry.status, latencyMs: entry.latencyMs,
        upstreamMs: entry.upstreamMs, usage: entry.usage, cost, cacheStatus: entry.cacheStatus,
      };
    }
    for (const listener of this.#listeners) {
      try {
        listener(recorded);
      } catch (e) {
        this.#warn(e, 'request log listener failed');
      }
    }
    try {
      await this.store.insert(rows);
      this.#written += rows.length;
    } catch (e) {
      this.#failed += rows.length;
      this.#warn(e, `request log: a batch of ${rows.length} could not be written`);
    }
  }

  #warn(err: unknown, message: string): void {
    const now = performance.now();
    if (now - this.#warnedAt < WARNING_INTERVAL_MS) return;
    this.#warnedAt = now;
    this.logger.warn({ err }, message);
  }
}

function costOf(pricing: Pricing | undefined, e: PendingLog): number | null {
  // A cache hit called no provider: it cost nothing, whatever usage its answer repeats.
  if (e.cacheStatus === 'HIT' || e.cacheStatus === 'SEMANTIC HIT') return 0;
  if (!pricing || !e.usage || !e.provider || !e.model) return null;
  try {
    const cost = pricing.cost(e.provider, e.model, e.usage, e.integration, e.organisationId);
    return typeof cost === 'number' && Number.isFinite(cost) ? cost : null;
  } catch {
    return null;
  }
}
