import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import AllowedRequestTypesGuardrail from '../../../guardrails/allowed-request-types/index.js';
import type { AllowedRequestTypesParams } from '../../../guardrails/allowed-request-types/params.js';
import { input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.allowedRequestTypes', () => {
  let check: TestableCheck<AllowedRequestTypesParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(AllowedRequestTypesGuardrail, 'default.allowedRequestTypes')));
  after(() => runtime.close());

  it('validates params: arrays or comma strings, no type in both lists', () => {
    expect(validateParams(check, { allowedTypes: ['chatComplete'], blockedTypes: 'embed, moderate' }).ok).to.equal(true);
    expect(validateParams(check, { allowedTypes: 5 }).issues[0]).to.deep.equal({ path: 'allowedTypes', rule: 'must be an array of endpoint ids or a comma-separated string' });
    expect(validateParams(check, { allowedTypes: 'chatComplete,embed', blockedTypes: ['embed'] }).issues[0]).to.deep.equal({
      path: 'blockedTypes', rule: 'must not repeat allowed types (embed)',
    });
  });

  const chat = input('hi', { endpoint: 'chatComplete' });
  const embed = input('hi', { endpoint: 'embed' });

  it('allow list: only listed endpoints pass', async () => {
    // Passing: only what was found (the request type), no params echoed, no explanation.
    expect(await run(check, { allowedTypes: ['chatComplete'] }, chat)).to.deep.equal({ verdict: true, data: { currentRequestType: 'chatComplete' } });
    const refused = await run(check, { allowedTypes: 'chatComplete, complete' }, embed);
    expect(refused.verdict).to.equal(false);
    expect(refused.data).to.deep.equal({ currentRequestType: 'embed', explanation: 'request type "embed" is not in the allowed types' });
  });

  it('block list: listed endpoints fail, others pass; blocked wins over allowed', async () => {
    expect((await run(check, { blockedTypes: ['embed'] }, embed)).verdict).to.equal(false);
    expect((await run(check, { blockedTypes: ['embed'] }, chat)).verdict).to.equal(true);
    expect((await run(check, { allowedTypes: ['chatComplete'], blockedTypes: ['embed'] }, embed)).verdict).to.equal(false);
  });

  it('no lists: metadata supported_endpoints / blocked_endpoints, else everything passes', async () => {
    expect((await run(check, {}, chat)).verdict).to.equal(true);
    expect((await run(check, {}, input('hi', { endpoint: 'embed', metadata: { supported_endpoints: 'chatComplete' } }))).verdict).to.equal(false);
    const blocked = await run(check, {}, input('hi', { endpoint: 'embed', metadata: { blocked_endpoints: 'embed,rerank' } }));
    expect(blocked.verdict).to.equal(false);
    expect(blocked.data).to.deep.equal({ currentRequestType: 'embed', explanation: 'request type "embed" is blocked' });
  });
});
