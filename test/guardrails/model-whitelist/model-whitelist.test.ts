import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import ModelWhitelistGuardrail from '../../../guardrails/model-whitelist/index.js';
import type { ModelWhitelistParams } from '../../../guardrails/model-whitelist/params.js';
import { input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.modelWhitelist', () => {
  let check: TestableCheck<ModelWhitelistParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(ModelWhitelistGuardrail, 'default.modelWhitelist')));
  after(() => runtime.close());

  it('validates params and runs on the request side only', () => {
    expect(validateParams(check, { models: ['gpt-4o'] }).ok).to.equal(true);
    expect(validateParams(check, { models: [] }).ok).to.equal(false);
    expect(validateParams(check, { models: 'gpt-4o' }).issues[0]).to.deep.equal({ path: 'models', rule: 'must be an array' });
    expect(check.phases).to.deep.equal(['beforeRequest', 'input']);
  });

  it('passes a listed model and fails another (exact names)', async () => {
    expect(await run(check, { models: ['gpt-4o', 'gpt-4o-mini'] }, input('hi', { model: 'gpt-4o-mini' }))).to.deep.equal({ verdict: true, data: { requestedModel: 'gpt-4o-mini' } });
    const other = await run(check, { models: ['gpt-4o'] }, input('hi', { model: 'gpt-4o-mini' }));
    expect(other.verdict).to.equal(false);
    expect(other.data).to.deep.equal({ requestedModel: 'gpt-4o-mini', explanation: 'model "gpt-4o-mini" is not in the list' });
  });

  it('works as a block list with not; a request without model is in no list', async () => {
    expect((await run(check, { models: ['o1'], not: true }, input('hi', { model: 'o1' }))).verdict).to.equal(false);
    expect((await run(check, { models: ['o1'], not: true }, input('hi', { model: 'gpt-4o' }))).verdict).to.equal(true);
    const none = input('hi', { json: { messages: [] } });
    expect((await run(check, { models: ['o1'] }, { ...none, model: undefined })).verdict).to.equal(false);
    expect((await run(check, { models: ['o1'], not: true }, { ...none, model: undefined })).verdict).to.equal(true);
  });
});
