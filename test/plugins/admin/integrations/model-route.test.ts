/** `model: "@slug/model"` split (plugins/admin/integrations/model-route.ts). */
import { expect } from 'chai';
import { integrationModel } from '../../../../plugins/admin/integrations/model-route.js';

describe('admin.integrations: the @slug/model form', () => {
  it('splits at the first slash, so model names with slashes stay whole', () => {
    expect(integrationModel('@team/gpt-4o')).to.deep.equal({ slug: 'team', model: 'gpt-4o' });
    expect(integrationModel('@together/meta-llama/Llama-3-70b')).to.deep.equal({ slug: 'together', model: 'meta-llama/Llama-3-70b' });
    expect(integrationModel('@team/')).to.deep.equal({ slug: 'team', model: '' });
  });

  it('leaves any other model alone', () => {
    for (const model of ['gpt-4o', 'meta-llama/Llama-3-70b', '@no-slash', '', 42, undefined, null]) {
      expect(integrationModel(model), String(model)).to.equal(undefined);
    }
  });
});
