/** A back-off wait that ends early when the client goes away. */

/** Resolves true after `ms`, or false as soon as `signal` aborts (then no timer or listener is left behind). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    // A wait must never keep a shutting-down process alive.
    timer.unref();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
