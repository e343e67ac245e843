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

/** List prices (no integration multiplier). */
export interface Pricing {
  /** USD for `usage` of `model`, or null when the model has no price. */
  cost(provider: string | null | undefined, model: string | null | undefined, usage: TokenCounts | null | undefined): number | null;
  priceOf(model: string): Price | undefined;
}

export const PricingService = serviceKey<Pricing>('pricing');
