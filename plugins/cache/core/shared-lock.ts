/**
 * Coalescing across instances: the leader of a miss on this process also takes a short lock in the
 * shared StateStore (`cf:<key>`, SET NX PX: Redis with GW_REDIS_URL). The leader of the same miss
 * on another instance finds the lock taken and waits for it to go (one read every POLL_MS), then
 * looks the entry up: a hit, or, when the holder failed or died (its lock expires), it calls the
 * provider itself. A store that fails never holds a miss up: it goes on as if there were no lock.
 * The holder deletes its lock once its entry is written or known not to be; a holder slower than
 * the lock's life may delete a lock taken after it, which costs at most one more provider call.
 */
import type { StateStore } from '../../../core/index.js';

const PREFIX = 'cf:';
/** Time between two reads of a lock held by another instance. */
export const POLL_MS = 25;

export type Claim = 'won' | 'taken' | 'failed';
export type LockWait = 'gone' | 'timed-out' | 'aborted' | 'failed';

export class SharedLocks {
  constructor(
    private readonly store: () => StateStore | undefined,
    private readonly warn: (error: unknown, message: string) => void,
  ) {}

  async claim(key: string, ttlMs: number): Promise<Claim> {
    const store = this.store();
    if (!store) return 'failed';
    try {
      return (await store.setIfAbsent(PREFIX + key, '1', ttlMs)) ? 'won' : 'taken';
    } catch (e) {
      this.warn(e, 'cache lock unavailable: identical misses on other instances are not coalesced');
      return 'failed';
    }
  }

  release(key: string): void {
    const store = this.store();
    store?.delete(PREFIX + key).catch((e: unknown) => this.warn(e, 'cache lock release failed: it expires by itself'));
  }

  /** Waits until the lock is gone, at most `limitMs`, no longer than the client stays. */
  async waitGone(key: string, limitMs: number, signal: AbortSignal): Promise<LockWait> {
    const store = this.store();
    if (!store) return 'failed';
    const deadline = performance.now() + limitMs;
    for (;;) {
      const result = await pause(Math.min(POLL_MS, Math.max(0, deadline - performance.now())), signal);
      if (result === 'aborted') return 'aborted';
      try {
        if ((await store.get(PREFIX + key)) === undefined) return 'gone';
      } catch (e) {
        this.warn(e, 'cache lock unreadable: calling the provider');
        return 'failed';
      }
      if (performance.now() >= deadline) return 'timed-out';
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<'slept' | 'aborted'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve('aborted');
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('slept');
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
