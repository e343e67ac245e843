/**
 * The cache around one target's call (WrapStage.CACHE, outermost): a hit answers without touching
 * the circuit breaker, retries, time-outs or the provider; a miss calls through and, when the
 * answer is a 200, keeps it aside (a stream is recorded as it passes) for `commitPending`.
 *
 *   lookup (unless x-gw-cache-force-refresh) ─ hit ──► outcome from the entry (JSON as stored, or SSE replay)
 *                                            └ miss ─► run ─► 200? remember the answer for onResponse
 */
import type {
  Attempt, AttemptRunner, CacheHit, CacheMode, CacheRequest, CacheStore, Outcome,
} from '../../core/index.js';
import { capture, jsonResponse, replayResponse } from './answers.js';
import { decodeEntry } from './entry.js';
import { STATUS_HEADER } from './headers.js';
import { cacheKey, canonicalBody, providerIdentity } from './key.js';
import { stateOf, type CacheState } from './state.js';

export interface CacheDeps {
  readonly store: () => CacheStore;
  /** Largest answer stored (bytes); larger answers pass through unstored. */
  readonly maxEntryBytes: number;
  readonly warn: (error: unknown, message: string) => void;
  readonly now: () => number;
}

export function withCache(run: AttemptRunner, mode: CacheMode, maxAgeSeconds: number, deps: CacheDeps): AttemptRunner {
  return async (attempt) => {
    const ctx = attempt.ctx;
    const state = stateOf(ctx);
    const request = prepare(attempt, state, maxAgeSeconds);
    if (!state.refresh) {
      const hit = await lookup(mode, request, deps);
      if (hit) return hit;
    }
    ctx.responseHeaders[STATUS_HEADER] = state.refresh ? 'REFRESH' : 'MISS';
    const outcome = await run(attempt);
    const response = outcome.response;
    if (outcome.status === 200 && !outcome.error && response?.status === 200) {
      const answer = capture(response, deps.maxEntryBytes);
      if (answer) (state.pending ??= []).push({ target: attempt.target, request, mode, provider: outcome.provider, answer });
    }
    return outcome;
  };
}

function prepare(attempt: Attempt, state: CacheState, maxAgeSeconds: number): CacheRequest {
  const body = attempt.body;
  if (state.lastBody !== body) {
    state.lastBody = body;
    state.lastBodyJson = canonicalBody(body);
  }
  const endpoint = attempt.endpoint.id;
  const identity = providerIdentity(attempt.target);
  return {
    key: cacheKey(endpoint, identity, state.namespace, state.lastBodyJson!),
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
