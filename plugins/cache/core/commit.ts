/** The write of a miss's answer, once the response is known to be what the client received. */
import type { Completion, GatewayResponse, RequestContext } from '../../../core/index.js';
import { encodeEntry } from './entry.js';
import type { CacheDeps } from './runner.js';
import { CacheStateKey, type PendingWrite } from './state.js';

/**
 * From `onResponse`: writes the answer of the target that served, only when the client received a
 * complete 200 (not an error, not a 246/446 guardrail result, not a cut stream). The checks are
 * synchronous (most requests have nothing pending); the write itself runs in the background.
 * Every miss this request leads is settled here: the written one once its write is done, the
 * others at once (their waiters then call the provider themselves).
 */
export function commitPending(ctx: RequestContext, response: GatewayResponse, completion: Completion, deps: CacheDeps): void {
  const pending = ctx.values.get(CacheStateKey)?.pending;
  if (!pending) return;
  const complete = completion.error === undefined && completion.status === 200 && response.status === 200 && ctx.outcome?.status === 200;
  const served = complete ? ctx.outcome!.target : undefined;
  let written = false;
  for (const write of pending) {
    if (!written && served !== undefined && write.target === served) {
      written = true;
      const stored = store(write, deps);
      if (write.lead) void stored.then((ok) => write.lead!.settle(ok));
    } else {
      write.lead?.settle(false);
    }
  }
}

/** Writes the entry; true once it is in the store. Never rejects. */
async function store(write: PendingWrite, deps: CacheDeps): Promise<boolean> {
  try {
    const answer = await write.answer();
    if (answer === undefined) return false;
    const now = deps.now();
    const { request } = write;
    const value = encodeEntry({ v: 1, created_at: now, expires_at: now + request.maxAgeSeconds * 1000, provider: write.provider }, answer);
    if (value.byteLength > deps.maxEntryBytes + 512) return false;
    await write.mode.save(request, value, deps.store());
    return true;
  } catch (e) {
    deps.warn(e, `cache write failed (mode ${write.mode.mode})`);
    return false;
  }
}
