/**
 * Group commit of finished lines: results that finish in the same turn of the event loop are
 * stored with one multi-row INSERT, then the batch's live `request_counts` are updated. `record`
 * resolves once the line's row is committed: only then does the line count as finished.
 */
import { LineState, type BatchRepo, type LineRow } from './repo.js';

interface Waiting {
  row: LineRow;
  resolve(): void;
  reject(e: unknown): void;
}

export class LineRecorder {
  #pending: Waiting[] = [];
  #scheduled = false;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: BatchRepo,
    private readonly batchId: string,
    /** Persisted counts, kept equal to the committed rows. */
    readonly counts: { completed: number; failed: number },
  ) {}

  record(row: LineRow): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ row, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          this.#chain = this.#chain.then(() => this.#flush());
        });
      }
    });
  }

  /** Resolves when everything recorded so far is committed. */
  async settled(): Promise<void> {
    while (this.#pending.length > 0 || this.#scheduled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await this.#chain;
    }
    await this.#chain;
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    try {
      await this.repo.insertLines(this.batchId, batch.map((w) => w.row));
      for (const { row } of batch) {
        if (row.ok === LineState.OK) this.counts.completed++;
        else if (row.ok === LineState.FAILED) this.counts.failed++;
      }
      await this.repo.update(this.batchId, { completed: this.counts.completed, failed: this.counts.failed });
      for (const w of batch) w.resolve();
    } catch (e) {
      for (const w of batch) w.reject(e);
    }
  }
}
