/** The conditional strategy without the network: compilation cache, target choice, guard errors. */
import { expect } from 'chai';
import type { ConfigNode, RequestContext, RunTarget, StrategyConfig } from '../../../../core/index.js';
import { ConditionalCompiler } from '../../../../plugins/strategies/conditional/compiled.js';
import { createConditionalStrategy } from '../../../../plugins/strategies/conditional/index.js';
import { RegexCache } from '../../../../plugins/strategies/conditional/regex-cache.js';

const newCompiler = () => new ConditionalCompiler({ limits: { maxDepth: 8, maxRegexLength: 100 }, regexes: new RegexCache(10) });
const ctxWith = (metadata: Record<string, string>) => ({ metadata, body: {}, request: { path: '/v1/chat/completions' } }) as unknown as RequestContext;

function recordRun(picked: number[]): RunTarget {
  return (i) => { picked.push(i); return Promise.resolve({ status: 200, retries: 0 }); };
}

const targets: ConfigNode[] = [{ name: 'free' }, { name: 'pro' }, { name: 'pro' }];

describe('strategy.conditional routing', () => {
  it('compiles a strategy once and reuses it while its targets stay the same', () => {
    const compiler = newCompiler();
    const strategy: StrategyConfig = { mode: 'conditional', conditions: [{ query: { 'metadata.tier': 'pro' }, then: 'pro' }], default: 'free' };
    const first = compiler.get(strategy, targets);
    expect(compiler.get(strategy, targets)).to.equal(first);
    expect(compiler.get(strategy, [...targets])).to.not.equal(first);
    expect(first.rules.map((r) => r.index)).to.deep.equal([1]); // the first target with that name
    expect(first.defaultIndex).to.equal(0);
  });

  it('takes the first matching condition, else the default', async () => {
    const strategy = createConditionalStrategy(newCompiler());
    const node: ConfigNode = {
      strategy: {
        mode: 'conditional',
        conditions: [
          { query: { 'metadata.tier': 'pro' }, then: 'pro' },
          { query: { 'metadata.tier': { $in: ['pro', 'team'] } }, then: 'team' },
        ],
        default: 'free',
      },
      targets: [{ name: 'free' }, { name: 'pro' }, { name: 'team' }],
    };
    const picked: number[] = [];
    for (const tier of ['pro', 'team', 'free', 'none']) await strategy.route(node, recordRun(picked), ctxWith({ tier }));
    expect(picked).to.deep.equal([1, 2, 0, 0]);
  });

  it('answers a 400 naming the reason when nothing matches and there is no default, running nothing', async () => {
    const strategy = createConditionalStrategy(newCompiler());
    const node: ConfigNode = { strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.tier': 'pro' }, then: 'pro' }] }, targets: [{ name: 'pro' }] };
    const picked: number[] = [];
    const outcome = await strategy.route(node, recordRun(picked), ctxWith({ tier: 'free' }));
    expect(outcome.status).to.equal(400);
    expect(outcome.error?.message).to.equal('config.strategy.default: no condition matched the request and no default target is set');
    expect(picked).to.deep.equal([]);
  });

  it('answers a 400 for an invalid query that skipped validation', async () => {
    const strategy = createConditionalStrategy(newCompiler());
    const node: ConfigNode = { strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.tier': { $regex: '(' } }, then: 'a' }], default: 'a' }, targets: [{ name: 'a' }] };
    const outcome = await strategy.route(node, recordRun([]), ctxWith({}));
    expect(outcome.status).to.equal(400);
    expect(outcome.error?.message).to.match(/^config\.strategy\.conditions\.0\.query\.metadata\.tier\.\$regex: must be a valid regular expression/);
  });
});
