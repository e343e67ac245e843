/** The price table: longest-prefix match, provider prefixes, overrides, unknown models. */
import { expect } from 'chai';
import { PriceTable, pricingService } from '../../../../plugins/policies/usage-limits/pricing.js';

describe('policy.usage-limits: pricing', () => {
  const table = new PriceTable();

  it('prices a model by the longest entry its name starts with', () => {
    expect(table.priceOf('gpt-4o')).to.deep.equal({ input: 2.5, output: 10 });
    expect(table.priceOf('gpt-4o-mini-2024-07-18')).to.deep.equal({ input: 0.15, output: 0.6 });
    expect(table.priceOf('gpt-4o-2024-08-06')).to.deep.equal({ input: 2.5, output: 10 });
    expect(table.priceOf('gpt-4.1-nano')).to.deep.equal({ input: 0.1, output: 0.4 });
    expect(table.priceOf('gpt-4-0613')).to.deep.equal({ input: 30, output: 60 });
    expect(table.priceOf('o1-mini')).to.deep.equal({ input: 1.1, output: 4.4 });
    expect(table.priceOf('GPT-4o')).to.deep.equal({ input: 2.5, output: 10 });
  });

  it('drops provider prefixes: path segments and Bedrock vendor (and region) prefixes', () => {
    expect(table.priceOf('models/gemini-1.5-pro-002')).to.deep.equal({ input: 1.25, output: 5 });
    expect(table.priceOf('@openai/gpt-4o-mini')).to.deep.equal({ input: 0.15, output: 0.6 });
    expect(table.priceOf('anthropic.claude-3-5-sonnet-20240620-v1:0')).to.deep.equal({ input: 3, output: 15 });
    expect(table.priceOf('us.anthropic.claude-3-haiku-20240307-v1:0')).to.deep.equal({ input: 0.25, output: 1.25 });
  });

  it('knows no price for unknown models', () => {
    expect(table.priceOf('my-own-model')).to.equal(undefined);
    expect(table.priceOf(undefined)).to.equal(undefined);
    expect(table.cost('my-own-model', 1000, 1000)).to.equal(undefined);
  });

  it('costs prompt tokens at the input price and completion tokens at the output price, with multipliers', () => {
    expect(table.cost('gpt-4o-mini', 1_000_000, 1_000_000)).to.be.closeTo(0.75, 1e-12);
    expect(table.cost('gpt-4o-mini', 1_000_000, 1_000_000, 2, 0.5)).to.be.closeTo(0.6, 1e-12);
  });

  it('takes overrides and new models from the options', () => {
    const custom = new PriceTable({ 'gpt-4o': { input: 1, output: 2 }, 'my-own-model': { input: 5, output: 5 } });
    expect(custom.priceOf('gpt-4o-2024-08-06')).to.deep.equal({ input: 1, output: 2 });
    expect(custom.priceOf('my-own-model-v2')).to.deep.equal({ input: 5, output: 5 });
  });

  it('serves request logs: cost(provider, model, usage), null when unknown', () => {
    const service = pricingService(table, () => undefined);
    expect(service.cost('openai', 'gpt-4o-mini', { prompt_tokens: 1_000_000, completion_tokens: null })).to.be.closeTo(0.15, 1e-12);
    expect(service.cost('openai', 'unknown-model', { prompt_tokens: 10, completion_tokens: 10 })).to.equal(null);
    expect(service.cost('openai', 'gpt-4o', null)).to.equal(null);
    // Without an integrations service an integration changes nothing.
    expect(service.cost('openai', 'gpt-4o-mini', { prompt_tokens: 1_000_000, completion_tokens: 0 }, 'int-1')).to.be.closeTo(0.15, 1e-12);
  });

  it("serves request logs with the serving integration's multipliers per token class", () => {
    const multipliers: Record<string, Record<string, number>> = { 'int-3x': { input: 3, output: 3 }, 'int-split': { input: 2, output: 0.5 }, 'int-bad': { input: Number.NaN, output: -1 } };
    const asked: [string, string, string | undefined][] = [];
    const service = pricingService(table, () => ({
      pricingMultiplier: (ref: string, tokenClass: string, organisationId?: string) => {
        asked.push([ref, tokenClass, organisationId]);
        return multipliers[ref]?.[tokenClass] ?? 1;
      },
    }));
    const million = { prompt_tokens: 1_000_000, completion_tokens: 1_000_000 };
    expect(service.cost('openai', 'gpt-4o-mini', million)).to.be.closeTo(0.75, 1e-12);
    expect(asked).to.deep.equal([]);
    expect(service.cost('openai', 'gpt-4o-mini', million, 'int-3x', 'org-a')).to.be.closeTo(2.25, 1e-12);
    expect(asked).to.deep.equal([['int-3x', 'input', 'org-a'], ['int-3x', 'output', 'org-a']]);
    expect(service.cost('openai', 'gpt-4o-mini', million, 'int-split', '')).to.be.closeTo(0.15 * 2 + 0.6 * 0.5, 1e-12);
    expect(asked[2]).to.deep.equal(['int-split', 'input', undefined]);
    // A multiplier that is not a number >= 0 counts as 1.
    expect(service.cost('openai', 'gpt-4o-mini', million, 'int-bad')).to.be.closeTo(0.75, 1e-12);
    expect(service.cost('openai', 'unknown-model', million, 'int-3x')).to.equal(null);
  });
});
