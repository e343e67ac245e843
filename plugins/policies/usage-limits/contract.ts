/**
 * The pricing service of policy.usage-limits, as other plugins use it (the request logs): import
 * this file and nothing else of the family. Optional for its consumers: without it, cost is null.
 */
import { serviceKey } from '../../../core/index.js';

export interface Price {
  /** USD per 1M prompt tokens. */
  input: number;
  /** USD per 1M completion tokens. */
  output: number;
}

export interface TokenCounts {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

/** Prices, scaled by the multipliers of the integration that served a request. */
export interface Pricing {
  /**
   * USD for `usage` of `model`, or null when the model has no price; `integration` (id, slug or
   * `@slug`, as the request log keeps it) applies its `pricing_adjustments.multiplier`.
   */
  cost(
    provider: string | null | undefined, model: string | null | undefined, usage: TokenCounts | null | undefined,
    integration?: string | null, organisationId?: string | null,
  ): number | null;
  priceOf(model: string): Price | undefined;
}

export const PricingService = serviceKey<Pricing>('pricing');
