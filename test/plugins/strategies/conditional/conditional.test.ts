/** strategy.conditional end to end: a real gateway in front of several mock OpenAI providers. */
import { expect } from 'chai';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, sdkClient, send, startMocks, STRATEGY_PLUGINS } from '../fallback/harness.js';

describe('strategy.conditional (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];

  const conditional = (conditions: unknown[], targets: unknown[], fallbackName = 'basic') => ({
    strategy: { mode: 'conditional', conditions, default: fallbackName },
    targets,
  });
  /** Three named targets: basic → mock 0, premium → mock 1, special → mock 2. */
  const named = () => [leaf(mocks[0]!, { name: 'basic' }), leaf(mocks[1]!, { name: 'premium' }), leaf(mocks[2]!, { name: 'special' })];
  const optionIndex = (res: { headers: Headers }) => res.headers.get('x-gw-last-used-option-index');

  before(async () => {
    gw = await startGateway({ plugins: STRATEGY_PLUGINS });
    mocks = await startMocks(3);
  });
  afterEach(() => mocks.forEach((m) => m.reset()));
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('routes by x-gw-metadata, the default taking what matches nothing', async () => {
    const config = conditional([{ query: { 'metadata.user_tier': 'pro' }, then: 'premium' }], named());
    const pro = await send(gw, config, { metadata: { user_tier: 'pro' } });
    expect(pro.status).to.equal(200);
    expect(optionIndex(pro)).to.equal('config.targets[1]');
    const free = await send(gw, config, { metadata: { user_tier: 'free' } });
    expect(optionIndex(free)).to.equal('config.targets[0]');
    const none = await send(gw, config);
    expect(optionIndex(none)).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([2, 1, 0]);
  });

  it('takes the first matching condition', async () => {
    const config = conditional([
      { query: { 'metadata.user_tier': { $in: ['pro', 'team'] } }, then: 'special' },
      { query: { 'metadata.user_tier': 'pro' }, then: 'premium' },
    ], named());
    expect(optionIndex(await send(gw, config, { metadata: { user_tier: 'pro' } }))).to.equal('config.targets[2]');
  });

  it('routes by body params: $in on the model, a nested message role, numeric comparison', async () => {
    const config = conditional([
      { query: { 'params.model': { $in: ['gpt-4o', 'gpt-4.1'] } }, then: 'premium' },
      { query: { 'params.messages.0.role': 'system', 'params.max_tokens': { $gte: 1000 } }, then: 'special' },
    ], named());
    const model = await send(gw, config, { body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } });
    expect(optionIndex(model)).to.equal('config.targets[1]');
    expect(mocks[1]!.requests[0]!.body.model).to.equal('gpt-4o');
    const system = { model: 'gpt-4o-mini', max_tokens: 1000, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }] };
    expect(optionIndex(await send(gw, config, { body: system }))).to.equal('config.targets[2]');
    expect(optionIndex(await send(gw, config, { body: { ...system, max_tokens: 999 } }))).to.equal('config.targets[0]');
  });

  it('routes by url.pathname', async () => {
    const config = conditional([{ query: { 'url.pathname': { $regex: '/v1/completions$' } }, then: 'special' }], named());
    const legacy = await send(gw, config, { path: '/v1/completions', body: { model: 'gpt-3.5-turbo-instruct', prompt: 'hi' } });
    expect(legacy.status).to.equal(200);
    expect(optionIndex(legacy)).to.equal('config.targets[2]');
    expect(mocks[2]!.requests[0]!.path).to.equal('/v1/completions');
    expect(optionIndex(await send(gw, config))).to.equal('config.targets[0]');
  });

  it('combines with $and / $or and several operators on one key', async () => {
    const config = conditional([{
      query: {
        $or: [
          { $and: [{ 'metadata.region': 'eu' }, { 'metadata.level': { $gt: 2, $lte: 5 } }] },
          { 'metadata.vip': { $regex: '^(yes|true)$' } },
        ],
        'params.model': { $ne: 'blocked' },
      },
      then: 'premium',
    }], named());
    const cases: [Record<string, string>, string][] = [
      [{ region: 'eu', level: '3' }, 'config.targets[1]'],
      [{ region: 'eu', level: '6' }, 'config.targets[0]'],
      [{ region: 'us', level: '3' }, 'config.targets[0]'],
      [{ vip: 'yes' }, 'config.targets[1]'],
      [{ vip: 'yesss' }, 'config.targets[0]'],
    ];
    for (const [metadata, expected] of cases) {
      expect(optionIndex(await send(gw, config, { metadata })), JSON.stringify(metadata)).to.equal(expected);
    }
  });

  it('is seen by the OpenAI SDK like any other route', async () => {
    const config = conditional([{ query: { 'metadata.user_tier': 'pro' }, then: 'premium' }], named());
    const client = await sdkClient(gw, config, { 'x-gw-metadata': JSON.stringify({ user_tier: 'pro' }) });
    const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(data.object).to.equal('chat.completion');
    expect(response.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
  });

  describe('invalid queries are rejected when the config is validated', () => {
    async function rejected(config: unknown, message: string | RegExp) {
      const res = await send(gw, config);
      expect(res.status).to.equal(400);
      expect(res.json.error.code).to.equal('invalid_config');
      if (typeof message === 'string') expect(res.json.error.message).to.equal(message);
      else expect(res.json.error.message).to.match(message);
      expect(counts(mocks)).to.deep.equal([0, 0, 0]);
      return res;
    }

    it('a $regex that does not compile, with its exact path', async () => {
      const res = await rejected(
        conditional([{ query: { 'metadata.tier': { $regex: '[a-' } }, then: 'premium' }], named()),
        /^config\.strategy\.conditions\.0\.query\.metadata\.tier\.\$regex: must be a valid regular expression \(.+\)$/,
      );
      expect(res.json.error.param).to.equal('strategy.conditions.0.query.metadata.tier.$regex');
    });

    it('an unknown operator', async () => {
      await rejected(conditional([{ query: { 'metadata.tier': { $like: 'p%' } }, then: 'premium' }], named()), /^config\.strategy\.conditions\.0\.query\.metadata\.tier\.\$like: unknown operator/);
    });

    it('$in that is not an array', async () => {
      await rejected(conditional([{ query: { 'params.model': { $in: 'gpt-4o' } }, then: 'premium' }], named()), 'config.strategy.conditions.0.query.params.model.$in: must be an array of strings, numbers, booleans or null');
    });

    it('$gt with a string', async () => {
      await rejected(conditional([{ query: {}, then: 'basic' }, { query: { 'metadata.level': { $gt: '2' } }, then: 'premium' }], named()), 'config.strategy.conditions.1.query.metadata.level.$gt: must be a number');
    });

    it('an empty $or', async () => {
      await rejected(conditional([{ query: { $or: [] }, then: 'premium' }], named()), 'config.strategy.conditions.0.query.$or: must be a non-empty array of queries');
    });

    it('in a nested node, with the path from the root', async () => {
      const inner = conditional([{ query: { $and: [{ 'metadata.tier': { $regex: '(' } }] }, then: 'premium' }], named());
      await rejected({ strategy: { mode: 'fallback' }, targets: [leaf(mocks[0]!), inner] }, /^config\.targets\.1\.strategy\.conditions\.0\.query\.\$and\.0\.metadata\.tier\.\$regex: must be a valid regular expression/);
    });

    it('then / default naming no target (the config schema)', async () => {
      await rejected(conditional([{ query: {}, then: 'nobody' }], named()), 'config.strategy.conditions.0.then: must name a target of this node: no target is named "nobody"');
      await rejected(conditional([{ query: {}, then: 'basic' }], named(), 'nobody'), 'config.strategy.default: must name a target of this node: no target is named "nobody"');
    });
  });
});
