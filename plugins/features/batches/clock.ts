/** Batch timestamps are Unix seconds, read from the batches' clock (tests move it by hand for expiry). */
import type { Clock } from '../../../core/index.js';

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
