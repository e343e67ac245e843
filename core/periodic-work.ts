/**
 * A job every instance schedules but one instance runs per period (a retention sweep, scheduled
 * rotation): each tick claims the period through the work leases and runs the job only when it
 * won. A claim lasts most of the interval, so the holder's own next tick (never early by more
 * than timer jitter) finds it expired, and a tick of another instance within the period does not.
 */
import type { WorkLeases } from './leases.js';

/** Share of the interval a period claim lasts. */
const PERIOD_SHARE = 0.9;

export class PeriodicWork {
  readonly #timers: NodeJS.Timeout[] = [];
  #running: Promise<boolean> | undefined;

  constructor(
    private readonly leases: WorkLeases,
    /** The lease's name: one per job, the same on every instance. */
    readonly name: string,
    private readonly intervalMs: number,
    private readonly job: () => Promise<void>,
    private readonly onError: (e: unknown) => void,
  ) {}

  /** Ticks every interval (the first after `firstDelayMs`); timers do not keep the process alive. */
  start(firstDelayMs = this.intervalMs): void {
    const first = setTimeout(() => void this.tick(), firstDelayMs);
    const every = setInterval(() => void this.tick(), this.intervalMs);
    first.unref();
    every.unref();
    this.#timers.push(first, every);
  }

  /** Runs the job when this instance wins the current period; a tick in progress is shared. Never rejects. */
  tick(): Promise<boolean> {
    this.#running ??= this.#claimAndRun().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    await this.#running;
  }

  async #claimAndRun(): Promise<boolean> {
    try {
      if (!(await this.leases.claimPeriod(this.name, Math.max(1, Math.floor(this.intervalMs * PERIOD_SHARE))))) return false;
      await this.job();
      return true;
    } catch (e) {
      this.onError(e);
      return false;
    }
  }
}
