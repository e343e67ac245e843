/** Helpers for outcomes that plugins set aside (a failed try that is retried, a target that falls back). */
import type { Outcome } from './types.js';

/**
 * Frees what a discarded outcome still holds, so no upstream connection leaks. A JSON answer is
 * already read; a stream answer holds its upstream body open. Starting it and breaking at once
 * runs its `return()` chain down to the transport (a generator that never started would skip its
 * own clean-up). Not awaited: the next try must not wait for this.
 */
export function releaseOutcome(outcome: Outcome): void {
  const stream = outcome.response?.stream;
  if (!stream) return;
  void (async () => {
    for await (const _chunk of stream) break;
  })().catch(() => undefined);
}
