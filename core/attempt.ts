/**
 * One target's attempt, as the kernel makes it for each leaf it runs.
 *
 * `signal` is made only when read (an AbortController costs microseconds; a cache hit needs none),
 * through an own, enumerable accessor, so that a plugin's `{ ...attempt }` copy carries it. The
 * accessor's functions are made once here: a closure per request (an object literal's
 * `get signal()`) gives every attempt a hidden class of its own, which lives in the old generation
 * and keeps the request alive until the next major GC.
 */
import type { Attempt, EndpointDef, RequestContext, Target } from './types.js';

const SIGNAL: PropertyDescriptor = {
  get(this: RequestAttempt): AbortSignal {
    return this.ctx.request.signal;
  },
  // A plugin that sets its own signal turns the accessor into a plain value.
  set(this: RequestAttempt, signal: AbortSignal) {
    Object.defineProperty(this, 'signal', { value: signal, writable: true, enumerable: true, configurable: true });
  },
  enumerable: true,
  configurable: true,
};

export class RequestAttempt implements Attempt {
  readonly endpoint: EndpointDef;
  body: Record<string, unknown>;
  headers: Record<string, string> = {};
  readonly stream: boolean;
  retry = 0;
  declare signal: AbortSignal;

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
