/**
 * Enforcement of usage limits. Before routing, each matching policy's usage of the current period
 * (StateStore counter `ul:<policy>:<period>:<group>`) is read: at or over credit_limit → 429 naming
 * the policy, with Retry-After until the next reset. Once an answer is written, its cost (USD, see
 * pricing.ts) or tokens (prompt + completion, see usage.ts) are added to every policy it matched,
 * with one atomic increment each. Budgets are not exact under concurrency: requests already under
 * way when a limit fills still complete and count.
 *
 * Alerts: the increment that takes a group's usage to or past `alert_threshold` (kind `threshold`)
 * or `credit_limit` (kind `exhausted`) raises the alert, once per group, period and alert epoch (an
 * atomic flag in the StateStore, so one instance of several raises it); it is logged (warn) and
 * recorded (GET /v1/policies/usage-limits/:id/alerts). Raising a policy's credit_limit or
 * alert_threshold starts a new alert epoch, so its alerts can fire again (v1.11.0).
 */
import { Errors, requestKey, wallNow as now, type GatewayResponse, type Logger, type RequestContext, type StateStore } from '../../../core/index.js';
import { enforceApplicable } from '../limits-common/applicable.js';
import { withCheckTimeout } from '../limits-common/check-timeout.js';
import type { PolicyIndex } from '../limits-common/policy-index.js';
import type { Workspaces } from '../limits-common/scope.js';
import { usageOf, type TokenUsage } from '../limits-common/usage.js';
import type { AlertKind, StoredUsageLimit, UsageLimitStore } from './policy-store.js';
import { multipliersOf, type IntegrationPricing, type PriceTable } from './pricing.js';
import { periodAt, type Period } from './schedule.js';
import { unitOf, type ActiveUsageLimit } from './view.js';

/** Retry-After of a cumulative limit (it frees only when raised or reset). */
export const CUMULATIVE_RETRY_AFTER_SECONDS = 3600;
/** Counters live a little past their period, then the store drops them. */
const GRACE_MS = 60_000;
/** The limits a request matched, to meter its answer against. */
const PendingKey = requestKey<Pending[]>('usage-limits.pending');

export type { IntegrationPricing } from './pricing.js';

interface Pending {
  active: ActiveUsageLimit;
  key: string;
  group: string;
  period: Period;
}

export const usageKey = (policyId: string, period: Period, group: string) => `ul:${policyId}:${period.key}:${group}`;
export const alertKey = (policy: StoredUsageLimit, period: Period, group: string, kind: AlertKind) =>
  `ula:${policy.id}:${policy.alert_epoch}:${period.key}:${group}:${kind}`;
export const ttlOf = (period: Period, at: number) => (period.end === null ? undefined : Math.max(GRACE_MS, period.end - at + GRACE_MS));
const toAmount = (value: string | undefined) => (value === undefined ? 0 : Number(value) || 0);
const round = (n: number) => Number(n.toFixed(6));

export interface BudgetDeps {
  store(): StateStore;
  index: PolicyIndex<StoredUsageLimit, ActiveUsageLimit>;
  workspaces: Workspaces;
  records: UsageLimitStore;
  prices: PriceTable;
  integrations(): IntegrationPricing | undefined;
  /** When the StateStore fails or is late: let requests through (true) or answer 503. */
  failOpen: boolean;
  /** How long a check waits for its counters. */
  checkTimeoutMs: number;
  /** A check that let its request through unchecked (fail open). */
  onCheckSkipped(ctx: RequestContext, error: unknown): void;
  /** A usage write that failed after the check. */
  onStoreError(error: unknown): void;
  logger: Logger;
}

export class Budgets {
  constructor(private readonly deps: BudgetDeps) {}

  /** The preRoute tap: resolves when the request may go on; rejects with a 429 otherwise. */
  enforce(ctx: RequestContext): Promise<undefined> {
    return enforceApplicable(ctx, this.deps.index, this.deps.workspaces, (workspaceId, matched) => this.#check(ctx, workspaceId, matched));
  }

  async #check(ctx: RequestContext, workspaceId: string, matched: ActiveUsageLimit[]): Promise<undefined> {
    const at = now();
    const pending: Pending[] = matched.map((active) => {
      const period = periodAt(active.schedule, at);
      const group = active.matcher.group(ctx, workspaceId);
      return { active, period, group, key: usageKey(active.policy.id, period, group) };
    });
    let used: number[];
    try {
      const store = this.deps.store();
      used = await withCheckTimeout(Promise.all(pending.map((p) => store.get(p.key).then(toAmount))), this.deps.checkTimeoutMs);
    } catch (e) {
      if (!this.deps.failOpen) {
        this.deps.onStoreError(e);
        throw Errors.unavailable('usage-limit counters are unavailable');
      }
      this.deps.onCheckSkipped(ctx, e);
      return undefined;
    }
    let refused = -1;
    for (let i = 0; i < pending.length; i++) {
      if (used[i]! < pending[i]!.active.policy.credit_limit) continue;
      // Several exhausted: name the one that frees last, so Retry-After is honest.
      const end = pending[i]!.period.end ?? Infinity;
      if (refused === -1 || end > (pending[refused]!.period.end ?? Infinity)) refused = i;
    }
    if (refused !== -1) {
      const { active, period } = pending[refused]!;
      ctx.reason = 'usage limit exhausted';
      const when = period.end === null ? 'the limit does not reset' : `usage resets at ${new Date(period.end).toISOString()}`;
      throw Errors.rateLimited(
        `usage limit exhausted: policy ${active.label} has used ${round(used[refused]!)} of ${active.policy.credit_limit} ${unitOf(active.policy)}; ${when}`,
        period.end === null ? CUMULATIVE_RETRY_AFTER_SECONDS : Math.max(1, Math.ceil((period.end - at) / 1000)),
      );
    }
    ctx.values.set(PendingKey, pending);
    return undefined;
  }

  /** Whether the request matched a policy (its answer must be metered). */
  matched(ctx: RequestContext): boolean {
    return ctx.values.has(PendingKey);
  }

  /** The onResponse tap: adds the answer's cost or tokens to the policies it matched. */
  record(ctx: RequestContext, response: GatewayResponse): void {
    const pending = ctx.values.get(PendingKey);
    if (!pending) return;
    const usage = usageOf(ctx, response);
    if (!usage) return;
    const tokens = usage.promptTokens + usage.completionTokens;
    let cost: number | undefined;
    for (const p of pending) {
      const amount = p.active.policy.type === 'tokens' ? tokens : (cost ??= this.costOf(ctx, usage));
      if (amount > 0) this.#add(p, amount).catch((e) => this.deps.onStoreError(e));
    }
  }

  /** USD of an answer: list price, scaled by the serving integration's multipliers. */
  costOf(ctx: RequestContext, usage: TokenUsage): number {
    const integrations = this.deps.integrations();
    const slug = integrations && integrationOf(ctx, integrations);
    const m = multipliersOf(integrations, slug, ctx.principal?.organisationId);
    return this.deps.prices.cost(usage.model, usage.promptTokens, usage.completionTokens, m.input, m.output) ?? 0;
  }

  async #add(p: Pending, amount: number): Promise<void> {
    const store = this.deps.store();
    const at = now();
    const total = await store.increment(p.key, amount, ttlOf(p.period, at));
    const policy = p.active.policy;
    if (policy.alert_threshold !== null && total >= policy.alert_threshold) await this.#raise(p, 'threshold', policy.alert_threshold, total, at);
    if (total >= policy.credit_limit) await this.#raise(p, 'exhausted', policy.credit_limit, total, at);
  }

  async #raise(p: Pending, kind: AlertKind, threshold: number, total: number, at: number): Promise<void> {
    const policy = p.active.policy;
    const first = (await this.deps.store().increment(alertKey(policy, p.period, p.group, kind), 1, ttlOf(p.period, at))) === 1;
    if (!first) return;
    const valueKey = p.group;
    this.deps.logger.warn(
      { policyId: policy.id, valueKey, kind, threshold, usage: round(total), unit: unitOf(policy) },
      kind === 'threshold' ? `usage limit ${p.active.label}: alert threshold reached` : `usage limit ${p.active.label}: limit exhausted`,
    );
    await this.deps.records.insertAlert({
      policy_id: policy.id, value_key: valueKey, kind, threshold, usage: round(total),
      period_start: p.period.start === null ? null : new Date(p.period.start).toISOString(),
    });
  }
}

/** The integration that served the request: the routed target's, else the `@slug` or virtual key the client named. */
function integrationOf(ctx: RequestContext, integrations: IntegrationPricing): string | undefined {
  const target = ctx.outcome?.target;
  if (target) {
    const known = integrations.forTarget(target);
    if (known) return known.id;
    if (typeof target.provider === 'string' && target.provider.startsWith('@')) return target.provider;
    if (typeof target.virtual_key === 'string') return target.virtual_key;
  }
  const headers = ctx.request.headers;
  const provider = headers['x-gw-provider'];
  if (provider?.startsWith('@')) return provider;
  return headers['x-gw-virtual-key'];
}
