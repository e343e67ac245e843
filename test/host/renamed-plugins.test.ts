/**
 * Renamed built-in ids: gateway files written for an old id keep loading the same plugin, and
 * `disable` with an old id still leaves it out.
 */
import { expect } from 'chai';
import { RENAMED_PLUGINS } from '../../host/builtins.js';
import { resolveComposition } from '../../host/compose.js';

const idsOf = async (composition: Parameters<typeof resolveComposition>[0]) =>
  (await resolveComposition(composition)).map((entry) => entry.cls.manifest?.id);

describe('host: renamed built-in plugin ids', () => {
  it('loads the renamed plugin when a gateway file names its old id', async () => {
    for (const [old, current] of Object.entries(RENAMED_PLUGINS)) {
      expect(await idsOf({ preset: 'none', plugins: [old] })).to.deep.equal([current]);
    }
  });

  it('leaves a plugin out of the preset when `disable` names its old id', async () => {
    const ids = await idsOf({ preset: 'default', disable: ['observe.request-log'] });
    expect(ids).to.not.include('observe.access-log');
    expect(ids).to.include('observe.trace-ids');
  });
});
