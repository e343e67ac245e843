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
