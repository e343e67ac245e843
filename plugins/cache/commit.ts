/** The write of a miss's answer, once the response is known to be what the client received. */
import type { Completion, GatewayResponse, RequestContext } from '../../core/index.js';
import { encodeEntry } from './entry.js';
import type { CacheDeps } from './runner.js';
import { CACHE_STATE, type CacheState, type PendingWrite } from './state.js';

/**
 * From `onResponse`: writes the answer of the target that served, only when the client received a
 * complete 200 (not an error, not a 246/446 guardrail result, not a cut stream). The checks are
 * synchronous (most requests have nothing pending); the write itself runs in the background.
 */
export function commitPending(ctx: RequestContext, response: GatewayResponse, completion: Completion, deps: CacheDeps): void {
  const pending = (ctx.locals.get(CACHE_STATE) as CacheState | undefined)?.pending;
  if (!pending) return;
  if (completion.error !== undefined || completion.status !== 200 || response.status !== 200 || ctx.outcome?.status !== 200) return;
  const served = ctx.outcome.target;
  const write = pending.find((p) => p.target === served);
  if (write) void store(write, deps);
}

async function store(write: PendingWrite, deps: CacheDeps): Promise<void> {
  try {
    const answer = await write.answer();
    if (answer === undefined) return;
    const now = deps.now();
    const { request } = write;
    const value = encodeEntry({ v: 1, created_at: now, expires_at: now + request.maxAgeSeconds * 1000, provider: write.provider }, answer);
    if (value.byteLength > deps.maxEntryBytes + 512) return;
    await write.mode.save(request, value, deps.store());
  } catch (e) {
    deps.warn(e, `cache write failed (mode ${write.mode.mode})`);
  }
}
