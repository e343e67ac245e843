/**
 * The cache around one target's call (WrapStage.CACHE, outermost): a hit answers without touching
 * the circuit breaker, retries, time-outs or the provider; a miss calls through and, when the
 * answer is a 200, keeps it aside (a stream is recorded as it passes) for `commitPending`.
 *
 *   lookup (unless x-gw-cache-force-refresh) ─ hit ──► outcome from the entry (JSON as stored, or SSE replay)
 *                                            └ miss ─► run ─► 200? remember the answer for onResponse
 */
import {
  JsonPayload, parseSse, SSE_HEADERS,
  type Attempt, type AttemptRunner, type CacheHit, type CacheMode, type CacheRequest, type CacheStore,
  type Completion, type GatewayResponse, type Outcome, type RequestContext, type SseEvent,
} from '../../core/index.js';
import { assembleAnswer } from './assemble.js';
import { decodeEntry, encodeEntry, type Entry } from './entry.js';
import { STATUS_HEADER } from './headers.js';
import { cacheKey, canonicalBody, providerIdentity } from './key.js';
import { recordStream } from './recorder.js';
import { replayAsSse } from './replay.js';
import { CACHE_STATE, stateOf, type CacheState, type PendingWrite } from './state.js';

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
      if (answer) state.pending.push({ target: attempt.target, request, mode, provider: outcome.provider, answer });
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

function jsonResponse(entry: Entry): GatewayResponse {
  return { status: 200, headers: { 'content-type': 'application/json' }, json: JsonPayload.fromBytes(entry.body) };
}

function replayResponse(entry: Entry, attempt: Attempt): GatewayResponse | undefined {
  const answer = JsonPayload.fromBytes(entry.body).tryValue();
  const options = attempt.body['stream_options'] as Record<string, unknown> | null | undefined;
  const sse = replayAsSse(answer, options?.['include_usage'] === true);
  if (!sse) return undefined;
  return { status: 200, headers: { ...SSE_HEADERS }, stream: once(sse) };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Keeps a 200 answer aside: JSON as the provider sent it; a stream recorded as it passes. */
function capture(response: GatewayResponse, maxBytes: number): PendingWrite['answer'] | undefined {
  if (response.json) {
    // The provider's bytes now: an output guardrail may rewrite the payload later, but the cache
    // stores what the provider said (and runs the guardrails again on every hit).
    const bytes = response.json.bytes();
    const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
    return size > maxBytes ? undefined : () => Promise.resolve(bytes);
  }
  if (response.stream) {
    const recording = recordStream(response.stream, maxBytes);
    response.stream = recording.stream;
    return async () => {
      const bytes = recording.bytes();
      if (!bytes) return undefined;
      const answer = assembleAnswer(await collect(parseSse(single(bytes))));
      return answer ? JSON.stringify(answer) : undefined;
    };
  }
  return undefined;
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/**
 * From `onResponse`: writes the answer of the target that served, only when the client received a
 * complete 200 (not an error, not a 246/446 guardrail result, not a cut stream).
 */
export async function commitPending(ctx: RequestContext, response: GatewayResponse, completion: Completion, deps: CacheDeps): Promise<void> {
  const state = ctx.locals.get(CACHE_STATE) as CacheState | undefined;
  if (!state || state.pending.length === 0) return;
  if (completion.error !== undefined || completion.status !== 200 || response.status !== 200 || ctx.outcome?.status !== 200) return;
  const served = ctx.outcome.target;
  const pending = state.pending.find((p) => p.target === served);
  if (!pending) return;
  try {
    const answer = await pending.answer();
    if (answer === undefined) return;
    const now = deps.now();
    const { request } = pending;
    const value = encodeEntry({ v: 1, created_at: now, expires_at: now + request.maxAgeSeconds * 1000, provider: pending.provider }, answer);
    if (value.byteLength > deps.maxEntryBytes + 512) return;
    await pending.mode.save(request, value, deps.store());
  } catch (e) {
    deps.warn(e, `cache write failed (mode ${pending.mode.mode})`);
  }
}
