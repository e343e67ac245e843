/**
 * Fixed JSON text around values that repeat from request to request (hook ids, check ids, data
 * keys, targets), made once and kept, bounded (oldest out first). Hand-written JSON on the hot path
 * joins these with the few parts that change, in few pieces: a string concatenated from many small
 * pieces costs more to flatten (when it is encoded or kept) than to build.
 */
import { BoundedMap } from './bounded-map.js';

const MAX_KEPT = 4096;

/** The text `make` gives for a string, kept in a bounded memo. */
export class KeptText {
  readonly #texts = new BoundedMap<string, string>(MAX_KEPT);
  constructor(private readonly make: (s: string) => string) {}

  get(s: string): string {
    return this.#texts.remember(s, this.make);
  }
}

/** How many whole-millisecond times have their text made in advance: the times most checks take. */
const KEPT_TIMES = 64;

/** Texts around an execution time, made in advance for 0 to 63 ms; undefined for any other time. */
export class KeptTimes {
  readonly #texts: readonly string[];
  constructor(make: (t: number) => string) {
    this.#texts = Array.from({ length: KEPT_TIMES }, (_, t) => make(t));
  }

  get(t: unknown): string | undefined {
    return typeof t === 'number' && Number.isInteger(t) && t >= 0 && t < this.#texts.length && !Object.is(t, -0) ? this.#texts[t] : undefined;
  }
}
