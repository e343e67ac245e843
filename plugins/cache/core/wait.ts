/**
 * A waiter's side of a flight: waits for the leader to settle, at most `limitMs`, and no longer
 * than its own client stays (the timer and the abort listener are removed whatever ends the wait).
 */
import type { Flight } from './in-flight.js';

export type WaitResult = 'stored' | 'not-stored' | 'timed-out' | 'aborted';

export function waitForFlight(flight: Flight, signal: AbortSignal, limitMs: number): Promise<WaitResult> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise<WaitResult>((resolve) => {
    let done = false;
    const finish = (result: WaitResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => finish('aborted');
    const timer = setTimeout(() => finish('timed-out'), limitMs);
    timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
    void flight.settled.then((stored) => finish(stored ? 'stored' : 'not-stored'));
  });
}
