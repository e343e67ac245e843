/**
 * Per-connection limits of the standalone server: how long a client may take to send its request,
 * how large its headers may be, how many connections are open at once. Streams that are answering
 * are not bound by the time limits (node stops timing a request once it has fully arrived).
 */
export interface ConnectionLimits {
  /** The request line and headers must have arrived within this time of the request's first byte. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this time of its first byte. */
  bodyTimeoutMs: number;
  /** Largest request line plus headers, bytes (431 above). */
  maxHeaderBytes: number;
  /** Open connections beyond this are closed as soon as they are accepted. */
  maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  headersTimeoutMs: 20_000,
  bodyTimeoutMs: 60_000,
  maxHeaderBytes: 16 * 1024,
  maxConnections: 4096,
});

/** Node checks the time limits on a sweep; a tenth of the headers time keeps the overshoot small. */
export function sweepIntervalMs(limits: ConnectionLimits): number {
  return Math.min(1_000, Math.max(10, Math.floor(limits.headersTimeoutMs / 10)));
}

/** Node refuses a headers time beyond the whole-request time; so do we, with the settings' names. */
export function checkConnectionLimits(limits: ConnectionLimits): void {
  if (limits.headersTimeoutMs > limits.bodyTimeoutMs) {
    throw new Error(
      `GW_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed GW_REQUEST_BODY_TIMEOUT_MS (${limits.bodyTimeoutMs}): the body time counts from the request's first byte`,
    );
  }
}
