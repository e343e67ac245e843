/**
 * One target's attempt, as the kernel makes it for each leaf it runs.
 *
 * `signal` is made only when read (an AbortController costs microseconds; a cache hit needs none),
 * through an own, enumerable accessor, so that a plugin's `{ ...attempt }` copy carries it. The
 * accessor's functions are made once here: a closure per request (an object literal's
 * `get signal()`) gives every attempt a hidden class of its own, which lives in the old generation
 * and keeps the request alive until the next major GC.
 */
import { abortSourceOf, type AbortSource } from './abort-source.js';
import type { Attempt, EndpointDef, RequestContext, Target } from './types.js';

// Set by the class's static block, which may touch its private field.
let SIGNAL: PropertyDescriptor;
let lazySource: (attempt: Attempt) => AbortSource | undefined;

export class RequestAttempt implements Attempt {
  readonly endpoint: EndpointDef;
  body: Record<string, unknown>;
  headers: Record<string, string> = {};
  readonly stream: boolean;
  retry = 0;
  declare signal: AbortSignal;
  /** Set once a plugin gives this attempt a signal of its own: the request's abort source no longer speaks for it. */
  #ownSignal = false;

  static {
    const descriptor: PropertyDescriptor = {
      get(this: RequestAttempt): AbortSignal {
        return this.ctx.request.signal;
      },
      // A plugin that sets its own signal turns the accessor into a plain value.
      set(this: RequestAttempt, signal: AbortSignal) {
        this.#ownSignal = true;
        Object.defineProperty(this, 'signal', { value: signal, writable: true, enumerable: true, configurable: true });
      },
      enumerable: true,
      configurable: true,
    };
    SIGNAL = descriptor;
    lazySource = (attempt) => attempt instanceof RequestAttempt && !attempt.#ownSignal ? attempt.ctx.request.abortSource : undefined;
  }

  constructor(
    readonly ctx: RequestContext,
    readonly target: Target,
  ) {
    this.endpoint = ctx.endpoint!;
    this.body = ctx.body;
    this.stream = ctx.stream;
    Object.defineProperty(this, 'signal', SIGNAL);
  }
}

/**
 * What aborts an attempt's upstream call. The kernel's attempt answers with the client request's
 * own source, so no signal is made; a copy (retries) or an attempt given its own signal (a
 * time-out) answers with that signal.
 */
export function attemptAbort(attempt: Attempt): AbortSource {
  return lazySource(attempt) ?? abortSourceOf(attempt.signal);
}
