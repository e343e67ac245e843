/**
 * policy.rate-limits: rate-limit policies (spec §2.2, §4.14, §4.15), managed through
 * `/v1/policies/rate-limits` (routes.ts) and enforced before routing (limiter.ts):
 * requests or tokens per minute, hour, day or week (fixed windows aligned to the unit in UTC,
 * windows.ts), per group of requests (group_by api_key, workspace_id, metadata.<key>), for the
 * requests the conditions select (conditions.ts). Over the limit: 429 with Retry-After and
 * x-ratelimit-limit / -remaining / -reset; allowed answers carry the same headers.
 *
 * Policies are kept in memory (policy-index.ts: reloaded on change, on every instance through the
 * invalidation bus, and every `refreshIntervalMs` as the bound when no relay carries changes);
 * counters live in the StateStore (`Services.State`: process memory, or Redis with GW_REDIS_URL
 * so several instances share one exact limit).
 */
import {
  Services, MAX_TIMER_MS, markSkippedCheck, Stage, Type,
  changesIn, type Plugin, type PluginApi, type StateStore, type Static,
} from '../../../core/index.js';
import { DirectoryService } from '../../admin/workspaces/contract.js';
import { SkippedCheckLog } from '../limits-common/check-timeout.js';
import { PolicyIndex } from '../limits-common/policy-index.js';
import { Workspaces } from '../limits-common/scope.js';
import { meterStream } from '../limits-common/usage.js';
import { compilePolicy, HeadersKey, RateLimiter, TokenCountersKey, type ActiveRateLimit } from './limiter.js';
import { RateLimitPolicyStore, type RateLimitPolicy } from './policy-store.js';
import { registerRoutes } from './routes.js';

const Options = Type.Object({
  /** How often policies are re-read from the store (changes made through other instances); 0: never. */
  refreshIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** When the state store fails or is late: true lets requests through (counted, with a warning), false answers 503. */
  failOpen: Type.Boolean({ default: true }),
  /** How long a check waits for its counters before it counts as failed (the Redis client's own command time-out applies too). */
  checkTimeoutMs: Type.Integer({ minimum: 1, maximum: 10_000, default: 200 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

/** At most one store-failure warning per this interval, so an outage does not flood the log. */
const WARNING_INTERVAL_MS = 10_000;

export default class RateLimitsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'policy.rate-limits',
    description: 'Rate-limit policies: /v1/policies/rate-limits, enforced before routing',
    requires: [Services.Records, Services.State],
    options: Options,
  };

  #index?: PolicyIndex<RateLimitPolicy, ActiveRateLimit>;

  async apply(api: PluginApi<Options>): Promise<void> {
    const store = new RateLimitPolicyStore(api.services.get(Services.Records));
    await store.init();
    const index = new PolicyIndex(() => store.allActive(), compilePolicy);
    this.#index = index;
    await index.reload();
    const onReloadError = (e: unknown) => api.logger.warn({ err: e }, 'rate-limit policies could not be reloaded');
    index.follow(changesIn(api.services), 'policies.rate-limits', onReloadError);
    index.startRefresh(api.options.refreshIntervalMs, onReloadError);

    const workspaces = new Workspaces(() => api.services.find(DirectoryService));
    let state: StateStore | undefined;
    let warnedAt = -Infinity;
    const skipped = new SkippedCheckLog(api.logger, 'rate-limit check skipped: its counters failed or did not answer in time, requests pass unchecked meanwhile', WARNING_INTERVAL_MS);
    const limiter = new RateLimiter({
      // Resolved at first use, so a store registered later (Redis over memory) wins.
      store: () => (state ??= api.services.get(Services.State)),
      index,
      workspaces,
      failOpen: api.options.failOpen,
      checkTimeoutMs: api.options.checkTimeoutMs,
      onCheckSkipped: (ctx, error) => {
        markSkippedCheck(ctx, 'rate_limits');
        skipped.skipped(error);
      },
      onStoreError: (error) => {
        const at = performance.now();
        if (at - warnedAt < WARNING_INTERVAL_MS) return;
        warnedAt = at;
        api.logger.warn({ err: error }, api.options.failOpen
          ? 'state store failed: rate-limit counters may be off meanwhile'
          : 'state store failed: requests under a rate limit are refused meanwhile');
      },
    });

    registerRoutes({ routes: api.registries.routes, store, index, workspaces });

    api.hooks.preRoute.tapPromise({ name: api.id, stage: Stage.LIMITS }, (ctx) => limiter.enforce(ctx));

    // Only requests that matched a policy carry our values: everything else costs two map lookups.
    api.hooks.respond.tap({ name: api.id, stage: Stage.LATE }, (response, ctx) => {
      const headers = ctx.values.get(HeadersKey);
      if (headers) Object.assign(response.headers, headers);
      if (ctx.values.has(TokenCountersKey) && response.status < 300) meterStream(ctx, response);
      return response;
    });
    api.hooks.onResponse.tap(api.id, (ctx, response) => limiter.recordTokens(ctx, response));
  }

  close(): void {
    this.#index?.close();
  }
}
