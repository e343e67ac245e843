/**
 * Enforcement, before routing. Per matching policy one counter per group and window
 * (`rl:<policy>:<unit><r|t>:<group>:<window start>`, expiring after its window) in the StateStore:
 *   - requests: one atomic increment; the request passes when the new count is <= value, so 200
 *     concurrent requests against a value of 50 let exactly 50 through, on one instance or several
 *     sharing Redis. A refused request gives back what it took, so counters count requests let through.
 *   - tokens: the window's count is read; the request passes while it is below value. Each answer's
 *     prompt + completion tokens are added once it is written, so a window is blocked once spent
 *     (requests already under way when it fills still complete: token limits are not exact).
 * Allowed answers carry the tightest matching policy's x-ratelimit-limit / -remaining / -reset
 * (seconds until its window ends); refusals are 429 with Retry-After and the same headers.
 */
import { Errors, requestKey, wallNow as now, type GatewayResponse, type RequestContext, type StateStore } from '../../../core/index.js';
import { enforceApplicable } from '../limits-common/applicable.js';
import { withCheckTimeout } from '../limits-common/check-timeout.js';
import { compileMatcher, type Matcher } from '../limits-common/conditions.js';
import type { PolicyIndex } from '../limits-common/policy-index.js';
import type { Workspaces } from '../limits-common/scope.js';
import { usageOf } from '../limits-common/usage.js';
import type { RateLimitPolicy } from './policy-store.js';
import { secondsUntil, UNIT_NAME, windowAt, type Window } from './windows.js';

export interface ActiveRateLimit {
  readonly policy: RateLimitPolicy;
  readonly matcher: Matcher;
  /** `rl:<policy id>:<unit><r|t>:`; a changed unit or type never reuses another's counter. */
  readonly keyPrefix: string;
  readonly message: string;
}

export function compilePolicy(policy: RateLimitPolicy): ActiveRateLimit {
  const label = policy.name ? `"${policy.name}" (${policy.id})` : policy.id;
  return {
    policy,
    matcher: compileMatcher(policy.conditions, policy.group_by),
    keyPrefix: `rl:${policy.id}:${policy.unit}${policy.type === 'tokens' ? 't' : 'r'}:`,
    message: `rate limit exceeded: policy ${label} allows ${policy.value} ${policy.type} per ${UNIT_NAME[policy.unit]}`,
  };
}

/** Counters live a little past their window, then the store drops them. */
const GRACE_MS = 1000;

interface TokenCounter {
  key: string;
  windowEnd: number;
}

/** The rate-limit headers of a request that matched a policy. */
export const HeadersKey = requestKey<Record<string, string>>('rate-limits.headers');
/** The token windows a request's answer counts against. */
export const TokenCountersKey = requestKey<TokenCounter[]>('rate-limits.tokens');

export interface LimiterDeps {
  store(): StateStore;
  index: PolicyIndex<RateLimitPolicy, ActiveRateLimit>;
  workspaces: Workspaces;
  /** When the StateStore fails or is late: let requests through (true) or answer 503. */
  failOpen: boolean;
  /** How long a check waits for its counters. */
  checkTimeoutMs: number;
  /** A check that let its request through unchecked (fail open). */
  onCheckSkipped(ctx: RequestContext, error: unknown): void;
  /** A counter write that failed after the check (giving back, adding tokens). */
  onStoreError(error: unknown): void;
}

const ttl = (window: Window, at: number) => Math.max(GRACE_MS, window.end - at + GRACE_MS);
const toCount = (value: string | undefined) => (value === undefined ? 0 : Number(value) || 0);

export class RateLimiter {
  constructor(private readonly deps: LimiterDeps) {}

  /** The preRoute tap: resolves when the request may go on; rejects with a 429 otherwise. */
  enforce(ctx: RequestContext): Promise<undefined> {
    return enforceApplicable(ctx, this.deps.index, this.deps.workspaces, (workspaceId, matched) => this.#check(ctx, workspaceId, matched));
  }

  async #check(ctx: RequestContext, workspaceId: string, matched: ActiveRateLimit[]): Promise<undefined> {
    const at = now();
    const store = this.deps.store();
    const windows = matched.map((a) => windowAt(a.policy.unit, at));
    const keys = matched.map((a, i) => `${a.keyPrefix}${a.matcher.group(ctx, workspaceId)}:${windows[i]!.start}`);
    let counts: number[];
    try {
      counts = await withCheckTimeout(Promise.all(matched.map((a, i) => (a.policy.type === 'requests'
        ? store.increment(keys[i]!, 1, ttl(windows[i]!, at))
        : store.get(keys[i]!).then(toCount)))), this.deps.checkTimeoutMs);
    } catch (e) {
      if (!this.deps.failOpen) {
        this.deps.onStoreError(e);
        throw Errors.unavailable('rate-limit counters are unavailable');
      }
      this.deps.onCheckSkipped(ctx, e);
      return undefined;
    }

    let refused = -1;
    let tightest = -1;
    let tightestRemaining = Infinity;
    for (let i = 0; i < matched.length; i++) {
      const { type, value } = matched[i]!.policy;
      const count = counts[i]!;
      if (type === 'requests' ? count > value : count >= value) {
        // Several refusals: name the one that frees last, so Retry-After is honest.
        if (refused === -1 || windows[i]!.end > windows[refused]!.end) refused = i;
      } else if (value - count < tightestRemaining) {
        tightest = i;
        tightestRemaining = value - count;
      }
    }

    if (refused !== -1) {
      // Counters count requests let through: a refused request gives back every count it took (so
      // raising a value frees exactly the difference). Exactness holds: counts of requests let
      // through are never given back, so none can pass once they reach the value.
      for (let i = 0; i < matched.length; i++) {
        if (matched[i]!.policy.type === 'requests') store.increment(keys[i]!, -1, ttl(windows[i]!, at)).catch((e) => this.deps.onStoreError(e));
      }
      ctx.reason = 'rate limited';
      const policy = matched[refused]!.policy;
      const reset = secondsUntil(windows[refused]!.end, at);
      throw Errors.rateLimited(matched[refused]!.message, reset, {
        'x-ratelimit-limit': String(policy.value),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(reset),
      });
    }

    const headers = {
      'x-ratelimit-limit': String(matched[tightest]!.policy.value),
      'x-ratelimit-remaining': String(Math.max(0, Math.floor(tightestRemaining))),
      'x-ratelimit-reset': String(secondsUntil(windows[tightest]!.end, at)),
    };
    Object.assign(ctx.responseHeaders, headers);
    ctx.values.set(HeadersKey, headers);
    let tokenCounters: TokenCounter[] | undefined;
    for (let i = 0; i < matched.length; i++) {
      if (matched[i]!.policy.type === 'tokens') (tokenCounters ??= []).push({ key: keys[i]!, windowEnd: windows[i]!.end });
    }
    if (tokenCounters) ctx.values.set(TokenCountersKey, tokenCounters);
    return undefined;
  }

  /** The onResponse tap: adds the answer's tokens to the windows of the token policies it matched. */
  recordTokens(ctx: RequestContext, response: GatewayResponse): void {
    const counters = ctx.values.get(TokenCountersKey);
    if (!counters) return;
    const usage = usageOf(ctx, response);
    const tokens = usage ? usage.promptTokens + usage.completionTokens : 0;
    if (tokens <= 0) return;
    const store = this.deps.store();
    const at = now();
    for (const counter of counters) {
      store.increment(counter.key, tokens, Math.max(GRACE_MS, counter.windowEnd - at + GRACE_MS)).catch((e) => this.deps.onStoreError(e));
    }
  }
}
