/**
 * strategy.sticky on loadbalance, end to end through one real gateway (state.memory) in front of
 * loopback mock providers: the same field values keep their first target, per gateway key and per
 * node; the choice lasts `ttl`; a kept target whose circuit is open is re-chosen; bad sticky
 * blocks are 400s naming `strategy.sticky.<field>`. (A fleet on Redis: sticky-fleet.e2e.test.ts.)
 */
import { expect } from 'chai';
import sinon from 'sinon';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import TestPrincipalPlugin from '../../features/prompts/principal-plugin.js';
import { FailingStatePlugin } from '../../../fixtures/failing-state.js';
import { closeAll, counts, leaf, send, startMocks } from '../fallback/harness.js';

type Config = Record<string, unknown>;

const servedIndex = (reply: { headers: Headers }) => reply.headers.get('x-gw-last-used-option-index');

describe('strategy.loadbalance: sticky (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  const sticky = (targets: unknown[], stickiness: Config = {}): Config => ({
    strategy: { mode: 'loadbalance', sticky: { enabled: true, hash_fields: ['metadata.user'], ttl: 60, ...stickiness } }, targets,
  });
  const two = () => [leaf(mocks[0]!), leaf(mocks[1]!)];

  before(async () => {
    gw = await startGateway({ plugins: [TestPrincipalPlugin] });
    mocks = await startMocks(3);
  });
  afterEach(() => {
    sinon.restore();
    mocks.forEach((m) => m.reset());
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  it('keeps the first target for the same metadata value, whatever later draws say', async () => {
    const random = sinon.stub(Math, 'random');
    const config = sticky(two(), { hash_fields: ['metadata.user'], ttl: 60 });
    random.returns(0.9); // first draw: targets[1]
    expect(servedIndex(await send(gw, config, { metadata: { user: 'ada' } }))).to.equal('config.targets[1]');
    random.returns(0.1); // would be targets[0] without stickiness
    for (let i = 0; i < 5; i++) expect(servedIndex(await send(gw, config, { metadata: { user: 'ada' } }))).to.equal('config.targets[1]');
    // Another user is drawn anew (and then kept).
    expect(servedIndex(await send(gw, config, { metadata: { user: 'bob' } }))).to.equal('config.targets[0]');
    random.returns(0.9);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'bob' } }))).to.equal('config.targets[0]');
    expect(counts(mocks)).to.deep.equal([2, 6, 0]);
  });

  it('without sticky.enabled every request is drawn anew', async () => {
    const random = sinon.stub(Math, 'random');
    const config = sticky(two(), { enabled: false });
    random.returns(0.9);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'cy' } }))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'cy' } }))).to.equal('config.targets[0]');
  });

  it('hashes params.* (body, any key order), headers.<name> and metadata.*', async () => {
    const random = sinon.stub(Math, 'random');
    const byParams = sticky(two(), { hash_fields: ['params.*'] });
    random.returns(0.9);
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'params' }], temperature: 0.5 };
    expect(servedIndex(await send(gw, byParams, { body }))).to.equal('config.targets[1]');
    random.returns(0.1);
    const reordered = { temperature: 0.5, messages: [{ content: 'params', role: 'user' }], model: 'gpt-4o-mini' };
    expect(servedIndex(await send(gw, byParams, { body: reordered }))).to.equal('config.targets[1]');
    expect(servedIndex(await send(gw, byParams, { body: { ...body, temperature: 0.6 } }))).to.equal('config.targets[0]');

    const byHeader = sticky(two(), { hash_fields: ['headers.X-Session'] });
    random.returns(0.9);
    expect(servedIndex(await send(gw, byHeader, { headers: { 'x-session': 's1' } }))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(gw, byHeader, { headers: { 'x-session': 's1' } }))).to.equal('config.targets[1]');
    expect(servedIndex(await send(gw, byHeader, { headers: { 'x-session': 's2' } }))).to.equal('config.targets[0]');

    const byAllMetadata = sticky(two(), { hash_fields: ['metadata.*'] });
    random.returns(0.9);
    expect(servedIndex(await send(gw, byAllMetadata, { metadata: { a: '1', b: '2' } }))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(gw, byAllMetadata, { metadata: { b: '2', a: '1' } }))).to.equal('config.targets[1]');
    expect(servedIndex(await send(gw, byAllMetadata, { metadata: { a: '1', b: '3' } }))).to.equal('config.targets[0]');
  });

  it('another gateway key does not share the choice', async () => {
    const random = sinon.stub(Math, 'random');
    const config = sticky(two());
    random.returns(0.9);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'dee' }, headers: { 'x-test-org': 'org-1' } }))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'dee' }, headers: { 'x-test-org': 'org-2' } }))).to.equal('config.targets[0]');
    expect(servedIndex(await send(gw, config, { metadata: { user: 'dee' }, headers: { 'x-test-org': 'org-1' } }))).to.equal('config.targets[1]');
  });

  it('two sticky nodes of one config never share a choice', async () => {
    const random = sinon.stub(Math, 'random');
    const inner = (): Config => sticky(two());
    // The outer fallback tries the first inner node, then the second: each keeps its own choice.
    const config = { strategy: { mode: 'fallback', on_status_codes: [503] }, targets: [inner(), inner()] };
    random.returns(0.9);
    mocks[1]!.next({ status: 503 });
    const first = await send(gw, config, { metadata: { user: 'eve' } });
    expect(first.status, first.text).to.equal(200);
    expect(servedIndex(first)).to.equal('config.targets[1].targets[1]');
    random.returns(0.1);
    mocks[1]!.next({ status: 503 });
    // The second node was drawn once (targets[1]) and keeps it; the first node kept targets[1] too.
    const second = await send(gw, config, { metadata: { user: 'eve' } });
    expect(servedIndex(second)).to.equal('config.targets[1].targets[1]');
    expect(counts(mocks)).to.deep.equal([0, 4, 0]);
  });

  it('a choice lasts ttl seconds, then the target is drawn again', async function () {
    this.timeout(10_000);
    const random = sinon.stub(Math, 'random');
    const config = sticky(two(), { ttl: 1 });
    random.returns(0.9);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'fay' } }))).to.equal('config.targets[1]');
    random.returns(0.1);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'fay' } }))).to.equal('config.targets[1]');
    await new Promise((r) => setTimeout(r, 1100));
    expect(servedIndex(await send(gw, config, { metadata: { user: 'fay' } }))).to.equal('config.targets[0]');
    random.returns(0.9);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'fay' } }))).to.equal('config.targets[0]');
  });

  it('re-chooses a kept target whose circuit is open, and keeps the new one', async () => {
    const random = sinon.stub(Math, 'random');
    const cb = { failure_threshold: 1, cooldown_interval: 60_000 };
    const config = sticky([leaf(mocks[0]!, { cb_config: cb }), leaf(mocks[1]!, { cb_config: cb }), leaf(mocks[2]!, { weight: 0 })]);
    random.returns(0.1);
    expect(servedIndex(await send(gw, config, { metadata: { user: 'gus' } }))).to.equal('config.targets[0]');
    mocks[0]!.next({ status: 503 });
    const failing = await send(gw, config, { metadata: { user: 'gus' } });
    expect(failing.status).to.equal(503); // served as is: loadbalance does not fall back; the circuit opens
    const moved = await send(gw, config, { metadata: { user: 'gus' } });
    expect(moved.status, moved.text).to.equal(200);
    expect(servedIndex(moved)).to.equal('config.targets[1]');
    expect(servedIndex(await send(gw, config, { metadata: { user: 'gus' } }))).to.equal('config.targets[1]');
    // The open circuit cost no provider call; the weight-0 target was never a candidate.
    expect(counts(mocks)).to.deep.equal([2, 2, 0]);
  });

  it('serves circuit_open when every candidate\'s circuit is open', async () => {
    const random = sinon.stub(Math, 'random');
    const cb = { failure_threshold: 1, cooldown_interval: 60_000 };
    const config = sticky([leaf(mocks[0]!, { cb_config: cb, override_params: { model: 'x-open' } }), leaf(mocks[1]!, { cb_config: cb, override_params: { model: 'x-open' } })]);
    random.returns(0.1);
    mocks[0]!.next({ status: 503 });
    expect((await send(gw, config, { metadata: { user: 'hal' } })).status).to.equal(503);
    random.returns(0.9);
    mocks[1]!.next({ status: 503 });
    expect((await send(gw, config, { metadata: { user: 'ivy' } })).status).to.equal(503);
    const reply = await send(gw, config, { metadata: { user: 'hal' } });
    expect(reply.status).to.equal(503);
    expect(reply.json.error.code).to.equal('circuit_open');
    expect(counts(mocks)).to.deep.equal([1, 1, 0]);
  });

  describe('bad sticky blocks: 400 naming strategy.sticky.<field>, no provider call', () => {
    const cases: [string, Config, string, string][] = [
      ['enabled missing', { hash_fields: ['metadata.user'] }, 'strategy.sticky.enabled', 'is required'],
      ['enabled not a boolean', { enabled: 'yes', hash_fields: ['metadata.user'] }, 'strategy.sticky.enabled', 'boolean'],
      ['hash_fields missing when enabled', { enabled: true }, 'strategy.sticky.hash_fields', 'is required when strategy.sticky.enabled is true'],
      ['hash_fields empty', { enabled: true, hash_fields: [] }, 'strategy.sticky.hash_fields', 'must be a list of 1 to 20 fields'],
      ['a field of no known kind', { enabled: true, hash_fields: ['body.user'] }, 'strategy.sticky.hash_fields.0', 'must be "metadata.<key>", "params.<field>" or "headers.<name>"'],
      ['a field without a name', { enabled: true, hash_fields: ['metadata.user', 'params.'] }, 'strategy.sticky.hash_fields.1', 'must be "metadata.<key>"'],
      ['ttl zero', { enabled: true, hash_fields: ['metadata.user'], ttl: 0 }, 'strategy.sticky.ttl', 'must be an integer from 1 to 2592000 (seconds)'],
      ['ttl not an integer', { enabled: true, hash_fields: ['metadata.user'], ttl: 1.5 }, 'strategy.sticky.ttl', 'must be an integer'],
      ['ttl a string', { enabled: true, hash_fields: ['metadata.user'], ttl: '60' }, 'strategy.sticky.ttl', 'must be an integer'],
      ['an unknown key', { enabled: true, hash_fields: ['metadata.user'], ttl_ms: 5 }, 'strategy.sticky.ttl_ms', ''],
      ['not an object', true as unknown as Config, 'strategy.sticky', ''],
    ];
    for (const [name, block, path, rule] of cases) {
      it(name, async () => {
        const reply = await send(gw, { strategy: { mode: 'loadbalance', sticky: block }, targets: two() });
        expect(reply.status, reply.text).to.equal(400);
        expect(reply.json.error.message).to.contain(path);
        expect(reply.json.error.message).to.contain(rule);
        expect(counts(mocks)).to.deep.equal([0, 0, 0]);
      });
    }

    it('sticky on another strategy mode', async () => {
      const reply = await send(gw, { strategy: { mode: 'fallback', sticky: { enabled: true, hash_fields: ['metadata.user'] } }, targets: two() });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('strategy.sticky: is only allowed when strategy.mode is "loadbalance"');
    });

    it('in a nested node, the path names the node', async () => {
      const reply = await send(gw, { strategy: { mode: 'fallback' }, targets: [leaf(mocks[0]!), { strategy: { mode: 'loadbalance', sticky: { enabled: true, hash_fields: ['x.y'] } }, targets: two() }] });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('targets.1.strategy.sticky.hash_fields.0');
    });
  });
});

describe('strategy.loadbalance: sticky without a state plugin', () => {
  it('a sticky node is refused naming the missing plugin; a plain one still routes', async () => {
    const mocks = await startMocks(1);
    const gw = await startGateway({ composition: { preset: 'default', disable: ['state.memory', 'policy.circuit-breaker', 'policy.rate-limits', 'policy.usage-limits', 'store.redis', 'agents.agent-servers'] } });
    try {
      const targets = [leaf(mocks[0]!), leaf(mocks[0]!)];
      const refused = await send(gw, { strategy: { mode: 'loadbalance', sticky: { enabled: true, hash_fields: ['metadata.user'] } }, targets });
      expect(refused.status).to.equal(400);
      expect(refused.json.error.message).to.contain('strategy.sticky: needs a state plugin');
      expect((await send(gw, { strategy: { mode: 'loadbalance' }, targets })).status).to.equal(200);
    } finally {
      await gw.stop();
      await closeAll(mocks);
    }
  });
});

describe('strategy.loadbalance: sticky while the state store fails', () => {
  it('every request is still served, balanced as without stickiness', async () => {
    const mocks = await startMocks(2);
    const gw = await startGateway({ plugins: [FailingStatePlugin] });
    const random = sinon.stub(Math, 'random');
    try {
      const config = { strategy: { mode: 'loadbalance', sticky: { enabled: true, hash_fields: ['metadata.user'] } }, targets: [leaf(mocks[0]!), leaf(mocks[1]!)] };
      random.returns(0.9);
      const first = await send(gw, config, { metadata: { user: 'kim' } });
      expect(first.status, first.text).to.equal(200);
      expect(servedIndex(first)).to.equal('config.targets[1]');
      random.returns(0.1);
      expect(servedIndex(await send(gw, config, { metadata: { user: 'kim' } }))).to.equal('config.targets[0]');
    } finally {
      random.restore();
      await gw.stop();
      await closeAll(mocks);
    }
  });
});
