/**
 * A user's plugin file outside the repository adds a strategy mode and its own config keys: the
 * keys are validated (schema, header kind, key group), reach the plugin's hook on the target,
 * inherited by child targets, and a mode or key of no loaded plugin is a 400. A real gateway file,
 * a real gateway and a mock OpenAI on loopback.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, PluginLoadError, serve, type Gateway, type RunningServer } from '../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, configHeaders, directHeaders, postJson, TEST_API_KEY } from '../helpers/gateway.js';

const ACME_PLUGIN = `
import { definePlugin, Stage, Type } from 'gw';
export default definePlugin({
  id: 'acme.last',
  config: {
    keys: Type.Object({
      acme_tag: Type.String({ minLength: 1, errorMessage: 'must be a non-empty string' }),
      acme_budget: Type.Integer({ minimum: 1 }),
    }),
    headers: ['acme_tag', 'acme_budget'],
    strategy: Type.Object({ skip: Type.Integer({ minimum: 0 }) }),
    groups: [['acme_tag']],
    rules(node, report) {
      const strategy = node.strategy;
      if (strategy && strategy.skip !== undefined && strategy.mode !== 'acme-last') report('strategy.skip', 'is only allowed when strategy.mode is "acme-last"');
    },
  },
  apply(api) {
    // The last target first, then backwards: skip drops that many from the end.
    api.registries.strategies.register('acme-last', {
      mode: 'acme-last',
      route(node, run) {
        return run(node.targets.length - 1 - (node.strategy.skip ?? 0));
      },
    }, api.id);
    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.PARAMS }, (attempt) => {
      const tag = attempt.target.acme_tag;
      if (tag !== undefined) attempt.headers['x-acme-tag'] = tag + (attempt.target.acme_budget ? '/' + attempt.target.acme_budget : '');
    });
  },
});
`;

const CLASHING_PLUGIN = `
import { definePlugin, Type } from 'gw';
export default definePlugin({ id: 'acme.clash', config: { keys: Type.Object({ retry: Type.String() }) }, apply() {} });
`;

describe('a user plugin with its own strategy and config keys', () => {
  let folder: string;
  let dataDir: string;
  let mock: MockOpenAI;
  let gateway: Gateway;
  let server: RunningServer;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'gw-user-config-'));
    dataDir = await mkdtemp(join(tmpdir(), 'gw-user-config-data-'));
    await writeFile(join(folder, 'acme.mjs'), ACME_PLUGIN);
    await writeFile(join(folder, 'clash.mjs'), CLASHING_PLUGIN);
    const file = join(folder, 'gateway.json');
    await writeFile(file, JSON.stringify({ preset: 'minimal', plugins: ['./acme.mjs'] }));
    mock = await startMockOpenAI();
    gateway = await createGateway({ configFile: file, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent', GW_BOOTSTRAP_API_KEY: TEST_API_KEY } });
    server = await serve(gateway, { port: 0, host: '127.0.0.1', shutdownTimeoutMs: 2000 });
  });
  after(async () => {
    await server?.stop();
    await mock?.close();
    await rm(folder, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const target = (name: string) => ({ name, provider: 'openai', api_key: `sk-${name}`, custom_host: `${mock.url}/v1` });
  const lastRequest = () => mock.requests[mock.requests.length - 1]!;
  const send = (config: unknown) => postJson(server.url, '/v1/chat/completions', CHAT_BODY, configHeaders(config));

  it('routes with the user strategy, and its key reaches the hook on the target, inherited by the children', async () => {
    const reply = await send({ strategy: { mode: 'acme-last' }, acme_tag: 'blue', targets: [target('a'), target('b')] });
    expect(reply.status, reply.text).to.equal(200);
    expect(lastRequest().headers['authorization']).to.equal('Bearer sk-b');
    expect(lastRequest().headers['x-acme-tag']).to.equal('blue');
  });

  it('takes the user strategy keys, and a child overrides an inherited key', async () => {
    const reply = await send({ strategy: { mode: 'acme-last', skip: 1 }, acme_tag: 'blue', targets: [{ ...target('a'), acme_tag: 'red', acme_budget: 3 }, target('b')] });
    expect(reply.status, reply.text).to.equal(200);
    expect(lastRequest().headers['authorization']).to.equal('Bearer sk-a');
    expect(lastRequest().headers['x-acme-tag']).to.equal('red/3');
  });

  it('takes the user keys from x-gw-<field> headers, converted by their schema', async () => {
    const reply = await postJson(server.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-acme-tag': 'green', 'x-gw-acme-budget': '7' }));
    expect(reply.status, reply.text).to.equal(200);
    expect(lastRequest().headers['x-acme-tag']).to.equal('green/7');
    const bad = await postJson(server.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-acme-budget': 'lots' }));
    expect(bad.status).to.equal(400);
    expect(bad.json.error.message).to.equal('header x-gw-acme-budget: must be an integer');
  });

  it('counts a user key group as a whole config', async () => {
    const reply = await send({ acme_tag: 'alone' });
    // A valid config (the group is complete): what fails is the missing provider, not the config's shape.
    expect(reply.json.error?.message ?? '').to.not.match(/^config: needs provider/);
  });

  it('validates the user keys and strategy keys, naming the field and the rule', async () => {
    const cases: [unknown, string][] = [
      [{ ...target('a'), acme_budget: 0 }, 'config.acme_budget: must be >= 1'],
      [{ ...target('a'), acme_tag: '' }, 'config.acme_tag: must be a non-empty string'],
      [{ strategy: { mode: 'acme-last', skip: -1 }, targets: [target('a')] }, 'config.strategy.skip: must be >= 0'],
      [{ strategy: { mode: 'single', skip: 1 }, targets: [target('a')] }, 'config.strategy.skip: is only allowed when strategy.mode is "acme-last"'],
      [{ strategy: { mode: 'acme-first' }, targets: [target('a')] }, 'config.strategy.mode: must be one of "single", "acme-last"'],
      [{ ...target('a'), acme_colour: 'x' }, 'config.acme_colour: is not an allowed key'],
    ];
    for (const [config, message] of cases) {
      const reply = await send(config);
      expect(reply.status, JSON.stringify(config)).to.equal(400);
      expect(reply.json.error.message).to.equal(message);
    }
  });

  it('names the built-in to load for a key or mode of a plugin the gateway was composed without', async () => {
    const cases: [unknown, string][] = [
      [{ ...target('a'), retry: { attempts: 2 } }, 'config.retry: needs plugin policy.retry, which is not loaded'],
      [{ strategy: { mode: 'fallback' }, targets: [target('a')] }, 'config.strategy.mode: "fallback" needs plugin strategy.fallback, which is not loaded'],
      [{ strategy: { mode: 'single', conditions: [] }, targets: [target('a')] }, 'config.strategy.conditions: needs plugin strategy.conditional, which is not loaded'],
      [{ strategy: { mode: 'acme-last' }, targets: [{ ...target('a'), cloudA_region: 'eu' }] }, 'config.targets.0.cloudA_region: needs plugin provider.bedrock, which is not loaded'],
    ];
    for (const [config, message] of cases) {
      const reply = await send(config);
      expect(reply.status, JSON.stringify(config)).to.equal(400);
      expect(reply.json.error.message).to.equal(message);
    }
    const header = await postJson(server.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-request-timeout': '100' }));
    expect(header.status).to.equal(400);
    expect(header.json.error.message).to.equal('header x-gw-request-timeout: needs plugin policy.request-timeout, which is not loaded');
  });

  it('refuses to boot when two plugins declare the same key, naming both', async () => {
    const file = join(folder, 'clash.json');
    await writeFile(file, JSON.stringify({ preset: 'none', plugins: ['policy.retry', './clash.mjs'] }));
    try {
      await createGateway({ configFile: file, env: { GW_DATA_DIR: dataDir, GW_LOG_LEVEL: 'silent' } });
      expect.fail('the gateway should have refused to boot');
    } catch (e) {
      expect(e).to.be.instanceOf(PluginLoadError);
      expect((e as Error).message).to.equal('config key "retry" is declared by both "policy.retry" and "acme.clash"');
    }
  });
});
