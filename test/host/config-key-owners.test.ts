/**
 * The host's table of which built-in owns which config key, strategy mode and cache mode (named in
 * the "needs plugin ..., which is not loaded" errors) agrees with the built-ins' own manifests and
 * registrations; and every built-in key of the default preset has exactly one owner.
 */
import { expect } from 'chai';
import { CONFIG_KEY_OWNERS, REGISTRY_ENTRY_OWNERS } from '../../host/builtins.js';
import { builtinConfigKeys } from '../helpers/config-keys.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

describe('built-in config key owners', () => {
  it('the host table lists exactly the keys the built-in manifests declare, with their plugin', async () => {
    const owners = (await builtinConfigKeys()).owners();
    const pluginOwned = Object.fromEntries(Object.entries(owners).filter(([, plugin]) => plugin !== 'core'));
    expect(pluginOwned).to.deep.equal({ ...CONFIG_KEY_OWNERS });
  });

  it('core keeps only the tree and the provider-neutral target', async () => {
    const owners = (await builtinConfigKeys()).owners();
    expect(Object.keys(owners).filter((key) => owners[key] === 'core').sort()).to.deep.equal(
      ['api_key', 'custom_host', 'name', 'provider', 'virtual_key', 'weight'],
    );
  });

  describe('in a booted default gateway', () => {
    let gw: TestGateway;
    before(async () => {
      gw = await startGateway();
    });
    after(() => gw.stop());

    it('the host table names the plugin that registers each strategy and cache mode', () => {
      const registries = gw.gateway.runtime.registries;
      const registered = (entries: Array<{ name: string; plugin: string }>) => Object.fromEntries(entries.map((e) => [e.name, e.plugin]));
      expect(registered(registries.strategies.entries())).to.deep.equal({ ...REGISTRY_ENTRY_OWNERS.strategies });
      expect(registered(registries.cacheModes.entries())).to.deep.equal({ ...REGISTRY_ENTRY_OWNERS.cacheModes });
    });

    it('gives every plugin the assembled config keys the kernel validates with', () => {
      expect(gw.gateway.runtime.kernel.configKeys.owners()).to.deep.include({ retry: 'policy.retry', cache: 'cache.core' });
    });
  });
});
