/** At most one warning per interval, so an embeddings outage does not flood the log. */
import type { Logger } from '../../core/index.js';

export function rateLimitedWarning(logger: Logger, intervalMs = 10_000): (error: unknown, message: string) => void {
  let lastAt = -Infinity;
  let suppressed = 0;
  return (error, message) => {
    const now = performance.now();
    if (now - lastAt < intervalMs) {
      suppressed++;
      return;
    }
    lastAt = now;
    logger.warn({ err: error, suppressed: suppressed || undefined }, message);
    suppressed = 0;
  };
}
