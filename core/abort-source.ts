/**
 * What can end an upstream call early, without an AbortSignal: an AbortController is an
 * EventTarget, and making one plus a listener per call costs more than most of a small call. A
 * host's request is a source of its own (the client going away); a plugin's own signal (a time-out)
 * is adapted to the same shape, so the transport knows one kind.
 */

export interface AbortSource {
  readonly aborted: boolean;
  /** Why it was aborted (a GatewayError for the client going away or a time-out); undefined while not aborted. */
  readonly reason: unknown;
  /**
   * Calls `listener` once when aborted; never when already aborted (read `aborted` first).
   * Whoever registers removes it with `offAbort` when its call is over.
   */
  onAbort(listener: () => void): void;
  offAbort(listener: () => void): void;
}

/** An AbortSignal seen as a source. */
class SignalSource implements AbortSource {
  constructor(private readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }

  get reason(): unknown {
    return this.signal.reason;
  }

  onAbort(listener: () => void): void {
    this.signal.addEventListener('abort', listener, { once: true });
  }

  offAbort(listener: () => void): void {
    this.signal.removeEventListener('abort', listener);
  }
}

export function abortSourceOf(abort: AbortSignal | AbortSource): AbortSource {
  return abort instanceof AbortSignal ? new SignalSource(abort) : abort;
}
