/**
 * policy.usage-limits: budgets on cost (USD) or tokens, per workspace, key or metadata value
 * (conditions and group_by as for rate limits), managed through `/v1/policies/usage-limits`
 * (routes.ts) and enforced before routing (budget.ts): an exhausted limit answers 429 naming it.
 * Usage resets weekly, monthly or every N days at 00:00 UTC, or never (schedule.ts); cost comes
 * from a per-model price table scaled by the integration's pricing multiplier (pricing.ts);
 * alerts at `alert_threshold` and at the limit are logged and recorded.
 *
 * Policies are kept in memory (reloaded on change, on every instance through the invalidation bus,
 * and every `refreshIntervalMs` as the bound when no relay carries changes); usage totals live in
 * the StateStore (process memory, or Redis with GW_REDIS_URL so several instances share them).
 * Provides `PricingService` (contract.ts) for the logs.
 */
import {
  Services, MAX_TIMER_MS, markSkippedCheck, Stage, Type,
  changesIn, type Plugin, type PluginApi, type StateStore, type Static,
} from '../../../core/index.js';
import { DirectoryService } from '../../admin/workspaces/contract.js';
import { IntegrationsService } from '../../admin/integrations/contract.js';
import { SkippedCheckLog } from '../limits-common/check-timeout.js';
import { PolicyIndex } from '../limits-common/policy-index.js';
import { Workspaces } from '../limits-common/scope.js';
import { meterStream } from '../limits-common/usage.js';
import { Budgets } from './budget.js';
import { PricingService } from './contract.js';
import { UsageLimitStore, type StoredUsageLimit } from './policy-store.js';
import { PriceTable, pricingService } from './pricing.js';
import { registerRoutes } from './routes.js';
import { compileUsageLimit, type ActiveUsageLimit } from './view.js';

const Price = Type.Object({
  input: Type.Number({ minimum: 0 }),
  output: Type.Number({ minimum: 0 }),
}, { additionalProperties: false });

const Options = Type.Object({
  /** How often policies are re-read from the store (changes made through other instances); 0: never. */
  refreshIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 10_000 }),
  /** When the state store fails or is late: true lets requests through (counted, with a warning), false answers 503. */
  failOpen: Type.Boolean({ default: true }),
  /** How long a check waits for its counters before it counts as failed (the Redis client's own command time-out applies too). */
  checkTimeoutMs: Type.Integer({ minimum: 1, maximum: 10_000, default: 200 }),
  /** USD per 1M input / output tokens by model name (prefix), over the built-in table. */
  prices: Type.Record(Type.String({ minLength: 1 }), Price, { default: {} }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const WARNING_INTERVAL_MS = 10_000;

export default class UsageLimitsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'policy.usage-limits',
    description: 'Usage limits (budgets on cost or tokens): /v1/policies/usage-limits, enforced before routing',
    requires: [Services.Records, Services.State],
    provides: [PricingService],
    options: Options,
  };

  #index?: PolicyIndex<StoredUsageLimit, ActiveUsageLimit>;

  async apply(api: PluginApi<Options>): Promise<void> {
    const records = new UsageLimitStore(api.services.get(Services.Records));
    await records.init();
    const index = new PolicyIndex(() => records.allActive(), compileUsageLimit);
    this.#index = index;
    await index.reload();
    const onReloadError = (e: unknown) => api.logger.warn({ err: e }, 'usage-limit policies could not be reloaded');
    index.follow(changesIn(api.services), 'policies.usage-limits', onReloadError);
    index.startRefresh(api.options.refreshIntervalMs, onReloadError);

    // Looked up at first use: admin.integrations may be applied after this plugin, or not at all.
    const integrationPricing = () => api.services.find(IntegrationsService);
    const prices = new PriceTable(api.options.prices);
    api.services.provide(PricingService, pricingService(prices, integrationPricing));

    const workspaces = new Workspaces(() => api.services.find(DirectoryService));
    let state: StateStore | undefined;
    // Resolved at first use, once every provider (Redis after memory) has been applied.
    const store = () => (state ??= api.services.get(Services.State));
    let warnedAt = -Infinity;
    const skipped = new SkippedCheckLog(api.logger, 'usage-limit check skipped: its counters failed or did not answer in time, requests pass unchecked meanwhile', WARNING_INTERVAL_MS);
    const budgets = new Budgets({
      store,
      index,
      workspaces,
      records,
      prices,
      integrations: integrationPricing,
      failOpen: api.options.failOpen,
      checkTimeoutMs: api.options.checkTimeoutMs,
      onCheckSkipped: (ctx, error) => {
        markSkippedCheck(ctx, 'usage_limits');
        skipped.skipped(error);
      },
      logger: api.logger,
      onStoreError: (error) => {
        const at = performance.now();
        if (at - warnedAt < WARNING_INTERVAL_MS) return;
        warnedAt = at;
        api.logger.warn({ err: error }, 'state store failed: usage limits are not counted or enforced meanwhile');
      },
    });

    registerRoutes({ routes: api.registries.routes, records, index, workspaces, state: store });

    api.hooks.preRoute.tapPromise({ name: api.id, stage: Stage.LIMITS }, (ctx) => budgets.enforce(ctx));
    api.hooks.respond.tap({ name: api.id, stage: Stage.LATE }, (response, ctx) => {
      if (response.stream && response.status < 300 && budgets.matched(ctx)) meterStream(ctx, response);
      return response;
    });
    api.hooks.onResponse.tap(api.id, (ctx, response) => budgets.record(ctx, response));
  }

  close(): void {
    this.#index?.close();
  }
}
