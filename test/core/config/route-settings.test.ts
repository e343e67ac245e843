/** RouteSettings: frozen configs route over kept, frozen targets; anything else gets fresh objects. */
import { expect } from 'chai';
import { deepFreeze, type ConfigNode } from '../../../core/index.js';
import { RouteSettings } from '../../../core/config/route-settings.js';
import { builtinConfigKeys } from '../../helpers/config-keys.js';

const keys = await builtinConfigKeys();

describe('RouteSettings', () => {
  const config = (): ConfigNode => ({
    retry: { attempts: 2 },
    strategy: { mode: 'fallback' },
    targets: [{ provider: 'openai', api_key: 'a' }, { provider: 'anthropic', api_key: 'b' }],
  });

  it('keeps the settings of a frozen config: the same frozen target for the same place', () => {
    const memo = new RouteSettings(keys);
    const root = deepFreeze(config());
    const top = memo.settings(undefined, root, 'config', false);
    const down = memo.passedDown(root, top);
    expect(memo.passedDown(root, top)).to.equal(down);
    const leaf = memo.settings(down, root.targets![0]!, 'config.targets[0]', true);
    expect(leaf).to.deep.equal({ provider: 'openai', api_key: 'a', retry: { attempts: 2 } });
    expect((leaf as { $path?: string }).$path).to.equal('config.targets[0]');
    expect(Object.isFrozen(leaf)).to.equal(true);
    expect(memo.settings(down, root.targets![0]!, 'config.targets[0]', true)).to.equal(leaf);
  });

  it('makes fresh objects for an unfrozen config, with $path on leaves', () => {
    const memo = new RouteSettings(keys);
    const root = config();
    const leaf = memo.settings(undefined, root.targets![1]!, 'config.targets[1]', true);
    expect(memo.settings(undefined, root.targets![1]!, 'config.targets[1]', true)).to.not.equal(leaf);
    expect((leaf as { $path?: string }).$path).to.equal('config.targets[1]');
    expect(Object.isFrozen(leaf)).to.equal(false);
  });

  it('does not hand out kept settings for another parent or place', () => {
    const memo = new RouteSettings(keys);
    const node = deepFreeze({ provider: 'openai' } as ConfigNode);
    const a = memo.settings(deepFreeze({ api_key: 'x' }), node, 'config.targets[0]', true);
    const b = memo.settings(deepFreeze({ api_key: 'y' }), node, 'config.targets[0]', true);
    expect(b).to.not.equal(a);
    expect(b['api_key']).to.equal('y');
    const c = memo.settings(undefined, node, 'config', true);
    expect((c as { $path?: string }).$path).to.equal('config');
  });
});
