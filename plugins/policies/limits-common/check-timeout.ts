/**
 * The time-out of a limit check whose counters do not answer in time, and the count and warning of
 * the checks skipped: a check that fails open marks its request (core's markSkippedCheck), counts
 * it, and warns at most once per interval with how many were skipped meanwhile.
 */
import type { Logger } from '../../../core/index.js';

export class CheckTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`limit counters did not answer within ${ms} ms`);
    this.name = 'CheckTimeoutError';
  }
}

/** `work`, or a CheckTimeoutError once `ms` pass first (the work itself goes on and is ignored). */
export function withCheckTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(ms)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Counts skipped checks; logs one warning per interval naming how many were skipped since the last one. */
export class SkippedCheckLog {
  #total = 0;
  #sinceWarning = 0;
  #warnedAt = -Infinity;

  constructor(private readonly logger: Logger, private readonly message: string, private readonly intervalMs = 10_000) {}

  /** Every check skipped since start. */
  get total(): number {
    return this.#total;
  }

  skipped(error: unknown): void {
    this.#total++;
    this.#sinceWarning++;
    const at = performance.now();
    if (at - this.#warnedAt < this.intervalMs) return;
    this.#warnedAt = at;
    const timedOut = error instanceof CheckTimeoutError;
    this.logger.warn(
      { err: timedOut ? undefined : error, timedOut, skipped: this.#sinceWarning, skippedTotal: this.#total },
      this.message,
    );
    this.#sinceWarning = 0;
  }
}
