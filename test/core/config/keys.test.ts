/** ConfigKeys: assembling plugins' config keys refuses contradictions, and the roles it gives each key. */
import { expect } from 'chai';
import { ConfigKeys, Type, type PluginConfig } from '../../../core/index.js';
import { createRegistries } from '../../../core/registries.js';

const assemble = (...configs: [string, PluginConfig][]) => new ConfigKeys(configs.map(([plugin, config]) => ({ plugin, config })), createRegistries());

describe('ConfigKeys assembly', () => {
  it('refuses a key declared by two plugins, naming both', () => {
    const keys = { keys: Type.Object({ tag: Type.String() }) };
    expect(() => assemble(['acme.a', keys], ['acme.b', keys])).to.throw('config key "tag" is declared by both "acme.a" and "acme.b"');
  });

  it('refuses a plugin claiming a key of the kernel', () => {
    expect(() => assemble(['acme.a', { keys: Type.Object({ provider: Type.String() }) }])).to.throw('config key "provider" is declared by both "core" and "acme.a"');
    expect(() => assemble(['acme.a', { keys: Type.Object({ targets: Type.Array(Type.Object({})) }) }])).to.throw(/declares the config key "targets", which is the kernel's/);
    expect(() => assemble(['acme.a', { keys: Type.Object({}), strategy: Type.Object({ mode: Type.String() }) }])).to.throw(/declares strategy.mode, which is the kernel's/);
  });

  it('refuses roles given to keys the plugin does not declare', () => {
    expect(() => assemble(['acme.a', { keys: Type.Object({ tag: Type.String() }), credentials: ['token'] }])).to.throw('plugin "acme.a" lists "token" in config.credentials but not in config.keys');
  });

  it('gives each key the roles its plugin declares, and the kernel its own', () => {
    const keys = assemble(['acme.a', {
      keys: Type.Object({ tag: Type.String(), token: Type.String(), rank: Type.Integer() }),
      headers: ['tag', 'rank'], credentials: ['token'], secrets: ['token'], nodeOnly: ['rank'],
    }]);
    expect(keys.isCredential('token')).to.equal(true);
    expect(keys.isSecret('token')).to.equal(true);
    expect(keys.isCredential('tag')).to.equal(false);
    expect(keys.isNodeOnly('rank')).to.equal(true);
    expect(keys.isNodeOnly('targets')).to.equal(true);
    expect(keys.isCredential('api_key')).to.equal(true);
    expect(keys.headerFields.get('x-gw-rank')).to.deep.equal({ field: 'rank', kind: 'integer' });
    expect(keys.headerFields.has('x-gw-token')).to.equal(false);
    expect(keys.owners()).to.include({ tag: 'acme.a', provider: 'core' });
  });

  it('without strategy plugins, a strategy mode is refused naming that none is loaded', () => {
    const keys = assemble();
    expect(keys.check({ strategy: { mode: 'single' }, targets: [{ provider: '@a' }] })[0]).to.deep.equal({ path: 'strategy.mode', rule: 'no strategy plugin for "single" is loaded' });
    expect(keys.check({ provider: 'openai', api_key: 'k', retry: { attempts: 1 } })[0]).to.deep.equal({ path: 'retry', rule: 'is not an allowed key' });
  });
});
