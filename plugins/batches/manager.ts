/**
 * The managed batches running in this process: starts new ones, resumes unfinished ones after a
 * restart, checks windows (expiry) on a timer, routes cancels to the running batch, and pauses
 * everything at shutdown.
 */
import type { Principal, SecretBox } from '../../core/index.js';
import { unixSeconds } from './clock.js';
import type { SealedRequest } from './capture.js';
import { lineError } from './input.js';
import { ACTIVE_STATUSES, type BatchRow } from './repo.js';
import { BatchRun, type RunDeps } from './run.js';

export interface ManagerOptions {
  expiryCheckIntervalMs: number;
  /** How long shutdown waits for runs to record what finished. */
  shutdownTimeoutMs: number;
}

export class BatchManager {
  readonly #runs = new Map<string, { run: BatchRun; done: Promise<void> }>();
  readonly #timers: NodeJS.Timeout[] = [];
  #closed = false;

  constructor(
    private readonly deps: RunDeps,
    private readonly box: SecretBox,
    private readonly options: ManagerOptions,
  ) {}

  /** The expiry sweep; resuming interrupted batches waits for the gateway's `ready` hook (see index.ts). */
  startTimers(): void {
    const sweep = setInterval(() => this.sweep(), this.options.expiryCheckIntervalMs);
    sweep.unref();
    this.#timers.push(sweep);
  }

  /** Resumes the batches a stop or crash interrupted; never throws. */
  async resumeInterrupted(): Promise<void> {
    await this.resume().catch((e) => this.deps.logger.error({ err: e }, 'resuming batches failed'));
  }

  start(row: BatchRow, sealed: SealedRequest): void {
    if (this.#closed || this.#runs.has(row.id)) return;
    const run = new BatchRun(this.deps, row, sealed, parsePrincipal(row.principal));
    const done = run.run().finally(() => this.#runs.delete(row.id));
    this.#runs.set(row.id, { run, done });
  }

  /** Picks up managed batches a previous process left unfinished. */
  async resume(): Promise<void> {
    const { repo, clock, logger } = this.deps;
    await repo.deleteLinesOfTerminalBatches();
    for (const row of await repo.active()) {
      if (this.#closed) return;
      if (this.#runs.has(row.id)) continue;
      let sealed: SealedRequest;
      try {
        sealed = JSON.parse(this.box.decrypt(row.sealed, row.id)) as SealedRequest;
      } catch {
        await repo.transition(row.id, ACTIVE_STATUSES, {
          status: 'failed',
          failed_at: unixSeconds(clock),
          errors: JSON.stringify([lineError(null, 'config_unreadable', 'the stored config of this batch cannot be decrypted (was GW_SECRET_KEY changed?)')]),
        });
        continue;
      }
      logger.info({ batch: row.id, status: row.status }, 'resuming batch');
      this.start(row, sealed);
    }
  }

  cancel(id: string): void {
    this.#runs.get(id)?.run.cancel();
  }

  sweep(): void {
    for (const { run } of this.#runs.values()) run.expireIfDue();
  }

  /** Whether a batch is being worked on in this process. */
  running(id: string): boolean {
    return this.#runs.has(id);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    const runs = [...this.#runs.values()];
    for (const { run } of runs) run.shutdown();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(runs.map((r) => r.done)),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.shutdownTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}

function parsePrincipal(text: string): Principal | undefined {
  const value = JSON.parse(text) as Principal | null;
  return value ? Object.freeze(value) : undefined;
}
