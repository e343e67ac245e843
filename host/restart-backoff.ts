/**
 * How long the cluster primary waits before replacing a dead worker: a worker that dies again soon
 * after the previous death waits twice as long (up to a ceiling), so a crash loop (a bad config, a
 * store that refuses connections) does not spin the CPU; a death after a stable spell starts over.
 */
export interface BackoffOptions {
  /** The first wait. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
  /** Deaths further apart than this are not a loop: the wait starts over from `baseMs`. */
  stableMs: number;
}

export const DEFAULT_RESTART_BACKOFF: BackoffOptions = Object.freeze({ baseMs: 250, maxMs: 30_000, stableMs: 60_000 });

export class RestartBackoff {
  #deaths = 0;
  #lastDeathAt = -Infinity;

  constructor(private readonly options: BackoffOptions = DEFAULT_RESTART_BACKOFF) {}

  /** Records a death at `now` (ms) and returns how long to wait before the replacement. */
  next(now: number): number {
    if (now - this.#lastDeathAt > this.options.stableMs) this.#deaths = 0;
    this.#lastDeathAt = now;
    const exponent = Math.min(this.#deaths, 30);
    this.#deaths++;
    return Math.min(this.options.maxMs, this.options.baseMs * 2 ** exponent);
  }
}
