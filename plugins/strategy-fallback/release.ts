/** Frees what an outcome that is set aside still holds, so a fallback never leaks an upstream connection. */
import type { Outcome } from '../../core/index.js';

/**
 * A JSON answer is already read; a stream answer holds its upstream body open. Starting it and
 * breaking at once runs its `return()` chain down to the transport, which releases the socket.
 * Not awaited: the next target must not wait for this.
 */
export function release(outcome: Outcome): void {
  const stream = outcome.response?.stream;
  if (!stream) return;
  void (async () => {
    for await (const _chunk of stream) break;
  })().catch(() => undefined);
}
