/**
 * What an answer costs, in US dollars: list prices per 1M tokens (input = prompt tokens, output =
 * completion tokens) of common models, as published by their providers when this table was
 * written (override or extend it with the plugin's `prices` option). A model matches the longest
 * entry its name starts with, after provider prefixes (`models/`, `@openai/`, Bedrock's
 * `anthropic.` / `us.anthropic.` ...) are dropped, so dated versions (`gpt-4o-2024-08-06`) price
 * as their family. Unknown models cost 0 for usage limits (and `null`, "unknown", for logs).
 * Cached-token discounts are not applied. An integration's `pricing_adjustments.multiplier`
 * (per token class `input` / `output`) scales the price, for usage limits and request logs alike.
 *
 * Provided as `PricingService` (contract.ts) → `cost(provider, model, usage, integration?, organisationId?)`
 * for the request logs (and, through them, analytics and metrics).
 */
import type { Integrations } from '../../admin/integrations/contract.js';
import type { Price, Pricing, TokenCounts } from './contract.js';

export type { Price, TokenCounts };

export const DEFAULT_PRICES: Readonly<Record<string, Price>> = Object.freeze({
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'gpt-3.5-turbo-instruct': { input: 1.5, output: 2 },
  'o1': { input: 15, output: 60 },
  'o1-mini': { input: 1.1, output: 4.4 },
  'o3': { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-opus': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'gemini-1.5-flash': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, output: 5 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'command-r': { input: 0.15, output: 0.6 },
  'command-r-plus': { input: 2.5, output: 10 },
  'mistral-large': { input: 2, output: 6 },
  'mistral-small': { input: 0.2, output: 0.6 },
});

/** `models/`, `@openai/`, `publishers/google/models/` ... and Bedrock's `[region.]vendor.` prefixes. */
const PROVIDER_PREFIX = /^(?:.*\/)?(?:[a-z]{2}\.)?(?:anthropic|meta|cohere|mistral|amazon|ai21)\.|^.*\//;
const MEMO_MAX = 1000;


export class PriceTable {
  readonly #prices: ReadonlyMap<string, Price>;
  /** Entries, longest name first, for longest-prefix matching. */
  readonly #names: readonly string[];
  readonly #memo = new Map<string, Price | null>();

  constructor(overrides: Readonly<Record<string, Price>> = {}) {
    const merged = new Map<string, Price>();
    for (const [name, price] of Object.entries({ ...DEFAULT_PRICES, ...overrides })) merged.set(name.toLowerCase(), price);
    this.#prices = merged;
    this.#names = [...merged.keys()].sort((a, b) => b.length - a.length);
  }

  /** The price of a model, or undefined when the table does not know it. */
  priceOf(model: string | undefined): Price | undefined {
    if (!model) return undefined;
    let known = this.#memo.get(model);
    if (known === undefined) {
      known = this.#lookup(model.toLowerCase().replace(PROVIDER_PREFIX, '')) ?? null;
      if (this.#memo.size >= MEMO_MAX) this.#memo.clear();
      this.#memo.set(model, known);
    }
    return known ?? undefined;
  }

  /** USD for the tokens, with per-class multipliers; undefined for an unknown model. */
  cost(model: string | undefined, prompt: number, completion: number, inputMultiplier = 1, outputMultiplier = 1): number | undefined {
    const price = this.priceOf(model);
    if (!price) return undefined;
    return (prompt * price.input * inputMultiplier + completion * price.output * outputMultiplier) / 1_000_000;
  }

  #lookup(name: string): Price | undefined {
    const exact = this.#prices.get(name);
    if (exact) return exact;
    for (const candidate of this.#names) if (name.startsWith(candidate)) return this.#prices.get(candidate);
    return undefined;
  }
}

/** The part of the integrations service used for prices. */
export type IntegrationPricing = Pick<Integrations, 'pricingMultiplier' | 'forTarget'>;

export interface Multipliers {
  input: number;
  output: number;
}

const NO_MULTIPLIERS: Multipliers = Object.freeze({ input: 1, output: 1 });

/** An integration's (id, slug or `@slug`) price multipliers; 1 when unknown or not a usable number. */
export function multipliersOf(integrations: Pick<Integrations, 'pricingMultiplier'> | undefined, ref: string | null | undefined, organisationId?: string): Multipliers {
  if (!integrations || !ref) return NO_MULTIPLIERS;
  return {
    input: multiplier(integrations.pricingMultiplier(ref, 'input', organisationId)),
    output: multiplier(integrations.pricingMultiplier(ref, 'output', organisationId)),
  };
}

function multiplier(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 1;
}

/**
 * The `PricingService`: the cost of an answer, scaled by the multipliers of the
 * integration that served it (`integration`: its id, slug or `@slug`, as the request log keeps it).
 */
export function pricingService(table: PriceTable, integrations: () => Pick<Integrations, 'pricingMultiplier'> | undefined): Pricing {
  return Object.freeze({
    cost(
      _provider: string | null | undefined, model: string | null | undefined, usage: TokenCounts | null | undefined,
      integration?: string | null, organisationId?: string | null,
    ): number | null {
      if (!usage) return null;
      const m = multipliersOf(integrations(), integration, organisationId || undefined);
      return table.cost(model ?? undefined, usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, m.input, m.output) ?? null;
    },
    priceOf: (model: string) => table.priceOf(model),
  });
}
