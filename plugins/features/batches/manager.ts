/**
 * The managed batches running in this process: starts new ones, resumes unfinished ones after a
 * restart, checks windows (expiry) on a timer, routes cancels to the running batch, and pauses
 * everything at shutdown.
 *
 * Fleet: a batch runs on the one instance holding its work lease (`batch:<id>`, core/leases.ts).
 * The holder renews it every `heartbeatMs`; every instance scans for active batches every
 * `scanIntervalMs` and takes those whose lease expired (a killed instance's), resuming them from
 * their stored lines. A run that can no longer renew its lease stops before it could expire, so
 * two instances never run one batch at once.
 */
import type { Principal, SecretBox, WorkLeases } from '../../../core/index.js';
import { unixSeconds } from './clock.js';
import type { SealedRequest } from './capture.js';
import { lineError } from './input.js';
import { ACTIVE_STATUSES, type BatchRow } from './repo.js';
import { BatchRun, type RunDeps } from './run.js';

export interface ManagerOptions {
  expiryCheckIntervalMs: number;
  /** How long a claim on a batch lasts without renewal. */
  leaseTtlMs: number;
  /** How often the holder renews its claims (and sees cancels made on other instances). */
  heartbeatMs: number;
  /** How often unclaimed active batches are looked for. */
  scanIntervalMs: number;
  /** How long shutdown waits for runs to record what finished. */
  shutdownTimeoutMs: number;
}

export class BatchManager {
  readonly #runs = new Map<string, { run: BatchRun; done: Promise<void>; renewedAt: number }>();
  readonly #timers: NodeJS.Timeout[] = [];
  #closed = false;
  #scanning = false;
  #resuming: Promise<void> | undefined;

  constructor(
    private readonly deps: RunDeps,
    private readonly box: SecretBox,
    private readonly options: ManagerOptions,
    private readonly leases: WorkLeases,
  ) {}

  /** The expiry sweep; resuming interrupted batches waits for the gateway's `ready` hook (see index.ts). */
  startTimers(): void {
    const sweep = setInterval(() => this.sweep(), this.options.expiryCheckIntervalMs);
    const heartbeat = setInterval(() => void this.#heartbeat(), this.options.heartbeatMs);
    for (const timer of [sweep, heartbeat]) timer.unref();
    this.#timers.push(sweep, heartbeat);
  }

  /** After the first resume: takes over batches whose holder stopped renewing. */
  #startScan(): void {
    if (this.#closed || this.#scanning) return;
    this.#scanning = true;
    const scan = setInterval(() => void this.resumeInterrupted(), this.options.scanIntervalMs);
    scan.unref();
    this.#timers.push(scan);
  }

  /** Resumes the batches a stop or crash interrupted; never throws. */
  async resumeInterrupted(): Promise<void> {
    this.#resuming ??= this.resume()
      .catch((e) => this.deps.logger.error({ err: e }, 'resuming batches failed'))
      .finally(() => {
        this.#resuming = undefined;
        this.#startScan();
      });
    await this.#resuming;
  }

  /** Runs a new batch here once this instance holds its lease; never throws. */
  start(row: BatchRow, sealed: SealedRequest): void {
    if (this.#closed || this.#runs.has(row.id)) return;
    this.leases.claim(leaseName(row.id), this.options.leaseTtlMs).then((held) => {
      if (held) this.#run(row, sealed);
    }, (e: unknown) => this.deps.logger.warn({ err: e, batch: row.id }, 'claiming a new batch failed; a scan picks it up later'));
  }

  #run(row: BatchRow, sealed: SealedRequest): void {
    if (this.#closed || this.#runs.has(row.id)) {
      if (this.#closed) void this.leases.release(leaseName(row.id)).catch(() => undefined);
      return;
    }
    const run = new BatchRun(this.deps, row, sealed, parsePrincipal(row.principal));
    const done = run.run().finally(() => {
      this.#runs.delete(row.id);
      return this.leases.release(leaseName(row.id)).catch(() => undefined);
    });
    this.#runs.set(row.id, { run, done, renewedAt: Date.now() });
  }

  /** Picks up managed batches no live instance works on (left by a stop, a crash, or a dead instance). */
  async resume(): Promise<void> {
    const { repo, clock, logger } = this.deps;
    if (!this.#scanning) await repo.deleteLinesOfTerminalBatches();
    for (const row of await repo.active()) {
      if (this.#closed) return;
      if (this.#runs.has(row.id)) continue;
      if (!(await this.leases.claim(leaseName(row.id), this.options.leaseTtlMs))) continue;
      let sealed: SealedRequest;
      try {
        sealed = JSON.parse(this.box.decrypt(row.sealed, row.id)) as SealedRequest;
      } catch {
        await repo.transition(row.id, ACTIVE_STATUSES, {
          status: 'failed',
          failed_at: unixSeconds(clock),
          errors: JSON.stringify([lineError(null, 'config_unreadable', 'the stored config of this batch cannot be decrypted (was GW_SECRET_KEY changed?)')]),
        });
        await this.leases.release(leaseName(row.id));
        continue;
      }
      logger.info({ batch: row.id, status: row.status }, 'resuming batch');
      this.#run(row, sealed);
    }
  }

  /**
   * Renews the claims of the runs here. A run whose claim was taken, or could not be renewed for
   * most of its lifetime (the store is away), stops without recording its in-flight lines: the
   * instance that takes the batch over runs them once more. Also applies cancels made elsewhere.
   */
  async #heartbeat(): Promise<void> {
    for (const [id, entry] of this.#runs) {
      try {
        if (await this.leases.claim(leaseName(id), this.options.leaseTtlMs)) {
          entry.renewedAt = Date.now();
          if ((await this.deps.repo.get(id))?.status === 'cancelling') entry.run.cancel();
          continue;
        }
        this.deps.logger.warn({ batch: id }, 'another instance took this batch over: stopping here');
        entry.run.shutdown();
      } catch (e) {
        if (Date.now() - entry.renewedAt < this.options.leaseTtlMs - this.options.heartbeatMs) continue;
        this.deps.logger.warn({ err: e, batch: id }, 'the claim on this batch could not be renewed: stopping here');
        entry.run.shutdown();
      }
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
    for (const timer of this.#timers) clearInterval(timer);
    await this.#resuming;
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

function leaseName(batchId: string): string {
  return `batch:${batchId}`;
}

function parsePrincipal(text: string): Principal | undefined {
  const value = JSON.parse(text) as Principal | null;
  return value ? Object.freeze(value) : undefined;
}
