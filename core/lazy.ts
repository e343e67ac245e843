/**
 * Modules imported on first use rather than at boot: most of a gateway's start-up time is spent
 * loading modules, and many libraries serve only some requests (a WebSocket session, a JSON-schema
 * check, a Redis URL that may not be set). `lazy(() => import('x'))` loads once, however many callers
 * ask at the same time; `loaded` gives the module without a promise once it is there, so a hot path
 * awaits only on its very first call.
 */
export interface Lazy<T> {
  /** The module, imported on the first call. A failed import is retried by the next call. */
  (): Promise<T>;
  /** The module once imported; undefined before. */
  readonly loaded: T | undefined;
}

export interface LazyOptions {
  /**
   * Import it in the background once the host listens (`warmLazyModules`): for modules nearly every
   * gateway needs soon (the HTTP client of provider calls), so the first request does not wait.
   */
  warm?: boolean;
}

const toWarm: Array<() => Promise<unknown>> = [];

export function lazy<T>(load: () => Promise<T>, options: LazyOptions = {}): Lazy<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  const get = (() => {
    if (value !== undefined) return Promise.resolve(value);
    pending ??= load().then(
      (loaded) => (value = loaded),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  }) as Lazy<T>;
  Object.defineProperty(get, 'loaded', { get: () => value });
  if (options.warm) toWarm.push(get);
  return get;
}

/**
 * Imports the modules marked `warm`, one at a time on later turns of the event loop, so that
 * requests arriving meanwhile are served between them. Failures are left for the first real use
 * to report. Called by the host once it listens.
 */
export function warmLazyModules(): void {
  const queue = toWarm.splice(0);
  const next = (): void => {
    const get = queue.shift();
    if (!get) return;
    setImmediate(() => {
      get().catch(() => undefined).finally(next);
    });
  };
  next();
}
