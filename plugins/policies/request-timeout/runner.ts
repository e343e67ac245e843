/**
 * One try under a deadline. The try gets its own AbortController, linked to the client's abort
 * source (a plain callback: cheaper than AbortSignal.any and removed as soon as it is not needed). On
 * expiry the controller aborts with the 408 error as its reason: the upstream call is cancelled
 * (undici closes its socket) and the provider plugin rethrows that reason, which the kernel turns
 * into a 408 outcome.
 *
 * The deadline ends when the try returns: for a JSON answer that is after the whole body was read;
 * for a stream, after its first chunk (the upstream plugin awaits it). So request_timeout bounds
 * time-to-first-byte of a stream and never cuts one that has started.
 */
import { attemptAbort, Errors, type AttemptRunner, type GatewayError, type Outcome } from '../../../core/index.js';

export function withTimeout(run: AttemptRunner, ms: number): AttemptRunner {
  return async (attempt) => {
    const outer = attemptAbort(attempt);
    if (outer.aborted) return run(attempt);
    const provider = typeof attempt.target.provider === 'string' ? attempt.target.provider : undefined;
    const controller = new AbortController();
    let expired: GatewayError | undefined;
    const timer = setTimeout(() => {
      if (controller.signal.aborted) return;
      expired = Errors.timeout(ms, provider);
      controller.abort(expired);
    }, ms);
    timer.unref();
    const forward = () => controller.abort(outer.reason);
    outer.onAbort(forward);

    let streaming = false;
    try {
      const outcome = await run({ ...attempt, signal: controller.signal });
      streaming = outcome.response?.stream !== undefined;
      return expired && outcome.error ? timedOut(expired, provider, outcome) : outcome;
    } finally {
      clearTimeout(timer);
      // A started stream still needs the client's abort to reach its upstream call.
      if (!streaming) outer.offAbort(forward);
    }
  };
}

/** Whatever failure the abort caused downstream, the client sees the time-out. */
function timedOut(error: GatewayError, provider: string | undefined, outcome: Outcome): Outcome {
  if (outcome.error === error) {
    outcome.provider ??= provider;
    return outcome;
  }
  return { status: error.status, error, provider, retries: outcome.retries };
}
