/**
 * The cache around one target's call (WrapStage.CACHE, outermost): a hit answers without touching
 * the circuit breaker, retries, time-outs or the provider; a miss calls through and, when the
 * answer is a 200, keeps it aside (a stream is recorded as it passes) for `commitPending`.
 * Identical misses coalesce (in-flight.ts): while one is being fetched, the others wait for its
 * entry and are answered from it as hits; when it is not stored they call the provider themselves.
 * Across instances the leaders of one key meet at a shared lock (shared-lock.ts): one fetches, the
 * others wait for its entry the same way.
 *
 *   lookup (unless x-gw-cache-force-refresh) ─ hit ──► outcome from the entry (JSON as stored, or SSE replay)
 *                                            └ miss ─┬ same key in flight? wait ─ stored ─► lookup again ─ hit ──►
 *                                                    └ otherwise (or not stored) ─► run ─► 200? remember the answer for onResponse
 */
import {
  Errors,
  type KeyRoles, type Attempt, type AttemptRunner, type CacheHit, type CacheMode, type CacheRequest, type CacheStore, type Outcome,
} from '../../../core/index.js';
import { capture, jsonResponse, replayResponse } from './answers.js';
import { decodeEntry } from './entry.js';
import { STATUS_HEADER } from './headers.js';
import type { Flight, InFlight, Lead } from './in-flight.js';
import { canonicalBody, providerIdentity } from './key.js';
import type { KeyMemo } from './key-memo.js';
import type { SharedLocks } from './shared-lock.js';
import { stateOf, type CacheState } from './state.js';
import { waitForFlight } from './wait.js';

export interface CacheDeps {
  readonly store: () => CacheStore;
  /** Largest answer stored (bytes); larger answers pass through unstored. */
  readonly maxEntryBytes: number;
  readonly warn: (error: unknown, message: string) => void;
  readonly now: () => number;
  /** The misses under way on this process; undefined when coalescing is off. */
  readonly flights: InFlight | undefined;
  /** Exact keys by the client's body bytes. */
  readonly keys: KeyMemo;
  /** Which config keys identify the upstream (credentials). */
  readonly roles: KeyRoles;
  /** Longest wait for an identical miss when the target sets no `request_timeout` (ms). */
  readonly coalesceWaitMs: number;
  /** Locks shared with other instances; undefined when coalescing is off. */
  readonly locks: SharedLocks | undefined;
  /** Longest life of a shared lock (ms): how long other instances wait for a holder that died. */
  readonly lockMs: number;
}

export function withCache(run: AttemptRunner, mode: CacheMode, maxAgeSeconds: number, deps: CacheDeps): AttemptRunner {
  return async (attempt) => {
    const ctx = attempt.ctx;
    const state = stateOf(ctx);
    const request = prepare(attempt, state, maxAgeSeconds, deps.keys, deps.roles);
    if (!state.refresh) {
      const hit = await lookup(mode, request, deps);
      if (hit) return hit;
    }
    const flights = deps.flights;
    let lead: Lead | undefined;
    if (flights) {
      const flight = flights.find(request.key);
      // A force refresh never waits (it must call the provider); a request never waits for itself.
      if (flight && !state.refresh && flight.owner !== ctx) {
        const answer = await afterLeader(flights, flight, mode, request, deps);
        if (answer) return answer;
      }
      // Waiters that fall through do not lead: they call the provider, each on its own.
      if (!flight) lead = flights.lead(request.key, ctx, waitLimit(attempt, deps));
    }
    if (lead && deps.locks) {
      const shared = await acrossInstances(deps.locks, lead, state.refresh, mode, request, deps);
      if ('outcome' in shared) return shared.outcome;
      lead = shared.lead;
    }
    ctx.responseHeaders[STATUS_HEADER] = state.refresh ? 'REFRESH' : 'MISS';
    let handedOver = false;
    try {
      const outcome = await run(attempt);
      const response = outcome.response;
      if (outcome.status === 200 && !outcome.error && response?.status === 200) {
        const answer = capture(response, deps.maxEntryBytes);
        if (answer) {
          (state.pending ??= []).push({ target: attempt.target, request, mode, provider: outcome.provider, answer, lead });
          handedOver = true; // commitPending settles it once the write is done (or known not to happen)
        }
      }
      return outcome;
    } finally {
      if (!handedOver) lead?.settle(false);
    }
  };
}

/** Bound of a wait for an identical miss (and of a leader's flight): the target's own time-out if any. */
function waitLimit(attempt: Attempt, deps: CacheDeps): number {
  const ms = attempt.target.request_timeout;
  return typeof ms === 'number' && ms > 0 ? ms : deps.coalesceWaitMs;
}

/**
 * Waits for the leader of the same key: a hit from its entry once stored; a client-closed outcome
 * when our client went away meanwhile; undefined (call the provider) in every other case.
 */
async function afterLeader(flights: InFlight, flight: Flight, mode: CacheMode, request: CacheRequest, deps: CacheDeps): Promise<Outcome | undefined> {
  const attempt = request.attempt;
  const result = await flights.waiting(waitForFlight(flight, attempt.signal, waitLimit(attempt, deps)));
  if (result === 'aborted') return { status: 499, error: Errors.clientClosed(), retries: 0 };
  if (result !== 'stored') return undefined;
  const hit = await lookup(mode, request, deps);
  if (hit) attempt.ctx.reason += ' (coalesced)'; // for logs: this request waited for another
  return hit;
}

/**
 * The local leader's turn with the shared lock: it takes it (its lead then also frees it), or, when
 * another instance holds it, waits for it to go and answers from the entry that instance wrote.
 */
async function acrossInstances(
  locks: SharedLocks, lead: Lead, refresh: boolean, mode: CacheMode, request: CacheRequest, deps: CacheDeps,
): Promise<{ outcome: Outcome } | { lead: Lead }> {
  const attempt = request.attempt;
  const limit = Math.min(waitLimit(attempt, deps), deps.lockMs);
  const claim = await locks.claim(request.key, limit);
  if (claim === 'won') {
    return { lead: { settle: (stored) => {
      lead.settle(stored);
      locks.release(request.key);
    } } };
  }
  // A force refresh calls the provider whoever holds the lock; a failed store coalesces nothing.
  if (claim === 'failed' || refresh) return { lead };
  const waited = await locks.waitGone(request.key, limit, attempt.signal);
  if (waited === 'aborted') {
    lead.settle(false);
    return { outcome: { status: 499, error: Errors.clientClosed(), retries: 0 } };
  }
  const hit = waited === 'gone' ? await lookup(mode, request, deps) : undefined;
  if (!hit) return { lead };
  attempt.ctx.reason += ' (coalesced across instances)';
  lead.settle(true); // this process's waiters find the same entry
  return { outcome: hit };
}

function prepare(attempt: Attempt, state: CacheState, maxAgeSeconds: number, keys: KeyMemo, roles: KeyRoles): CacheRequest {
  const body = attempt.body;
  const endpoint = attempt.endpoint.id;
  const identity = providerIdentity(attempt.target, roles);
  const request = attempt.ctx.request;
  // The client's bytes stand for the body only while nothing changed it.
  const raw = body === request.body ? request.rawBody : undefined;
  const canonical = () => {
    if (state.lastBody !== body) {
      state.lastBody = body;
      state.lastBodyJson = canonicalBody(body);
    }
    return state.lastBodyJson!;
  };
  return {
    key: keys.key(endpoint, identity, state.namespace, raw, canonical),
    endpoint,
    identity,
    namespace: state.namespace,
    body,
    maxAgeSeconds,
    attempt,
  };
}

async function lookup(mode: CacheMode, request: CacheRequest, deps: CacheDeps): Promise<Outcome | undefined> {
  let hit: CacheHit | undefined;
  try {
    hit = await mode.lookup(request, deps.store());
  } catch (e) {
    deps.warn(e, `cache lookup failed (mode ${mode.mode}): answering as a miss`);
    return undefined;
  }
  if (!hit) return undefined;
  const entry = decodeEntry(hit.value, deps.now());
  if (!entry) return undefined;
  const attempt = request.attempt;
  const response = attempt.stream ? replayResponse(entry, attempt) : jsonResponse(entry);
  if (!response) return undefined;
  const ctx = attempt.ctx;
  ctx.responseHeaders[STATUS_HEADER] = hit.status;
  ctx.reason = hit.status === 'HIT' ? 'cache hit' : 'semantic cache hit';
  const provider = entry.meta.provider ?? (typeof attempt.target.provider === 'string' ? attempt.target.provider : undefined);
  return { status: 200, provider, retries: 0, response };
}
