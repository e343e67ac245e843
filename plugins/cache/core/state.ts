/**
 * What the cache keeps per request (in `ctx.values`): the request's cache headers, the canonical
 * body of the last body object keyed (targets usually share the client's body), and the answers
 * waiting to be written once the response is known to be a complete 200.
 */
import { requestKey, type CacheMode, type CacheRequest, type RequestContext, type Target } from '../../../core/index.js';
import { readCacheHeaders } from './headers.js';
import type { Lead } from './in-flight.js';


/** A miss's answer, written from `onResponse` only if it is what the client finally received. */
export interface PendingWrite {
  readonly target: Target;
  readonly request: CacheRequest;
  readonly mode: CacheMode;
  readonly provider: string | undefined;
  /** The answer's JSON; undefined when it cannot be stored (partial stream, too large ...). */
  answer(): Promise<Uint8Array | string | undefined>;
  /** The key this miss leads, when identical misses wait for it: settled once the write is done or known not to happen. */
  readonly lead?: Lead;
}

export interface CacheState {
  readonly namespace: string | undefined;
  readonly refresh: boolean;
  lastBody?: object;
  lastBodyJson?: string;
  /** Created by the first miss that has something to store. */
  pending?: PendingWrite[];
}

export const CacheStateKey = requestKey<CacheState>('cache.state');

export function newState(ctx: RequestContext): CacheState {
  const { namespace, refresh } = readCacheHeaders(ctx.request.headers);
  const state: CacheState = { namespace, refresh };
  ctx.values.set(CacheStateKey, state);
  return state;
}

export function stateOf(ctx: RequestContext): CacheState {
  return ctx.values.get(CacheStateKey) ?? newState(ctx);
}
