/**
 * Fallback at the root of a three-level tree (fallback → loadbalance → conditional), and the
 * inheritance of settings down such a tree: credentials and hosts set on a parent reach the
 * leaves unless a level sets its own; a child naming its own provider inherits no credential.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import type { Plugin, PluginApi } from '../../../../core/index.js';
import { createOpenAIAdapter } from '../../../../providers/openai/adapter.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { closeAll, counts, leaf, send, startMocks, STRATEGY_PLUGINS } from './harness.js';

/** A second provider id speaking the OpenAI protocol, to name "another provider" in a config. */
class CompatProviderPlugin implements Plugin {
  static readonly manifest = { id: 'test.provider-compat', description: 'openai-compatible provider for tests' };
  apply(api: PluginApi): void {
    api.registries.providers.register('compat', createOpenAIAdapter('compat'), api.id);
  }
}

describe('strategy.fallback nested three levels deep', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  let a: MockOpenAI, b: MockOpenAI, c: MockOpenAI, d: MockOpenAI;
  const optionIndex = (res: { headers: Headers }) => res.headers.get('x-gw-last-used-option-index');
  const authorizations = (mock: MockOpenAI) => mock.requests.map((r) => r.headers['authorization']);

  before(async () => {
    gw = await startGateway({ plugins: [...STRATEGY_PLUGINS, CompatProviderPlugin] });
    mocks = await startMocks(4);
    [a, b, c, d] = mocks as [MockOpenAI, MockOpenAI, MockOpenAI, MockOpenAI];
  });
  afterEach(() => {
    sinon.restore();
    mocks.forEach((m) => m.reset());
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  describe('fallback → loadbalance → conditional', () => {
    const config = () => ({
      strategy: { mode: 'fallback' },
      targets: [
        leaf(a),
        {
          strategy: { mode: 'loadbalance' },
          targets: [
            leaf(b, { weight: 0 }),
            {
              weight: 1,
              strategy: { mode: 'conditional', conditions: [{ query: { 'metadata.tier': 'pro' }, then: 'pro' }], default: 'free' },
              targets: [leaf(c, { name: 'free' }), leaf(d, { name: 'pro' })],
            },
          ],
        },
      ],
    });

    it('serves from the first target when it answers, touching nothing below', async () => {
      const res = await send(gw, config(), { metadata: { tier: 'pro' } });
      expect(optionIndex(res)).to.equal('config.targets[0]');
      expect(counts(mocks)).to.deep.equal([1, 0, 0, 0]);
    });

    it('falls back into the tree: the load balancer skips weight 0, the condition picks the leaf', async () => {
      a.next({ status: 503 });
      const pro = await send(gw, config(), { metadata: { tier: 'pro' } });
      expect(pro.status).to.equal(200);
      expect(optionIndex(pro)).to.equal('config.targets[1].targets[1].targets[1]');
      a.next({ status: 503 });
      const free = await send(gw, config(), { metadata: { tier: 'free' } });
      expect(optionIndex(free)).to.equal('config.targets[1].targets[1].targets[0]');
      expect(counts(mocks)).to.deep.equal([2, 0, 1, 1]);
    });

    it("serves the deepest leaf's failure when it was the last chance", async () => {
      a.next({ status: 503 });
      d.next({ status: 500 });
      const res = await send(gw, config(), { metadata: { tier: 'pro' } });
      expect(res.status).to.equal(500);
      expect(res.json.provider).to.equal('openai');
      expect(optionIndex(res)).to.equal('config.targets[1].targets[1].targets[1]');
    });
  });

  describe('inheritance and override at each level', () => {
    const LEAVES = ['own-key', 'same-provider', 'other-provider', 'own-host'];
    /** Level 2 routes by `metadata.leaf` to the leaf of that name (default: the bare leaf). */
    const config = () => ({
      provider: 'openai',
      api_key: 'sk-root',
      custom_host: `${a.url}/v1`,
      strategy: { mode: 'fallback' },
      targets: [
        {
          api_key: 'sk-level1', // overrides the root key; provider and host come from the root
          strategy: { mode: 'loadbalance' },
          targets: [
            {
              custom_host: `${b.url}/v1`, // overrides the host; the key comes from level 1
              strategy: { mode: 'conditional', conditions: LEAVES.map((name) => ({ query: { 'metadata.leaf': name }, then: name })), default: 'inherit' },
              targets: [
                { name: 'inherit' },
                { name: 'own-key', api_key: 'sk-leaf' },
                { name: 'same-provider', provider: 'openai', custom_host: `${c.url}/v1` }, // the key was given for this provider
                { name: 'other-provider', provider: 'compat', custom_host: `${c.url}/v1` }, // a key given for openai never reaches compat
                { name: 'own-host', custom_host: `${c.url}/v1` },
              ],
            },
          ],
        },
        { custom_host: `${d.url}/v1` }, // the root key and provider, another host
      ],
    });

    it('a bare leaf gets the provider from the root, the key from level 1 and the host from level 2', async () => {
      const res = await send(gw, config(), { metadata: { leaf: 'inherit' } });
      expect(res.status).to.equal(200);
      expect(optionIndex(res)).to.equal('config.targets[0].targets[0].targets[0]');
      expect(authorizations(b)).to.deep.equal(['Bearer sk-level1']);
      expect(counts(mocks)).to.deep.equal([0, 1, 0, 0]);
    });

    it('a leaf key overrides every parent key', async () => {
      await send(gw, config(), { metadata: { leaf: 'own-key' } });
      expect(authorizations(b)).to.deep.equal(['Bearer sk-leaf']);
    });

    it('a leaf host overrides the parent hosts and keeps the inherited key', async () => {
      await send(gw, config(), { metadata: { leaf: 'own-host' } });
      expect(authorizations(c)).to.deep.equal(['Bearer sk-level1']);
    });

    it('a leaf naming the same provider keeps the inherited key', async () => {
      const res = await send(gw, config(), { metadata: { leaf: 'same-provider' } });
      expect(res.status).to.equal(200);
      expect(authorizations(c)).to.deep.equal(['Bearer sk-level1']);
    });

    it('a leaf naming another provider inherits no key: its provider refuses, the root falls back', async () => {
      const res = await send(gw, config(), { metadata: { leaf: 'other-provider' } });
      expect(authorizations(c)).to.deep.equal([undefined]);
      expect(res.status).to.equal(200);
      expect(optionIndex(res)).to.equal('config.targets[1]');
      expect(authorizations(d)).to.deep.equal(['Bearer sk-root']);
    });

    it('a child node without a strategy does not inherit its parent\'s: it serves from its first target', async () => {
      const res = await send(gw, { strategy: { mode: 'fallback' }, targets: [{ targets: [leaf(b), leaf(c)] }] });
      expect(optionIndex(res)).to.equal('config.targets[0].targets[0]');
      expect(counts(mocks)).to.deep.equal([0, 1, 0, 0]);
    });

    it('on_status_codes stays with its node: a nested fallback without codes falls back on anything', async () => {
      b.next({ status: 400 });
      const res = await send(gw, { strategy: { mode: 'fallback', on_status_codes: [503] }, targets: [{ strategy: { mode: 'fallback' }, targets: [leaf(b), leaf(c)] }] });
      expect(res.status).to.equal(200);
      expect(optionIndex(res)).to.equal('config.targets[0].targets[1]');
    });
  });
});
