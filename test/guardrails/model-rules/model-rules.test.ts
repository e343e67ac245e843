import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import ModelRulesGuardrail from '../../../guardrails/model-rules/index.js';
import type { ModelRulesParams } from '../../../guardrails/model-rules/params.js';
import { input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.modelRules', () => {
  let check: TestableCheck<ModelRulesParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(ModelRulesGuardrail, 'default.modelRules')));
  after(() => runtime.close());

  const rules = {
    defaults: ['gpt-4o-mini'],
    metadata: { tier: { pro: ['gpt-4o', 'o1'], team: ['gpt-4o'] }, region: { eu: ['mistral-large'] } },
  };

  it('validates params: the rules shape, and at least defaults or metadata rules', () => {
    expect(validateParams(check, { rules }).ok).to.equal(true);
    expect(validateParams(check, { rules: {} }).issues[0]).to.deep.equal({ path: 'rules', rule: 'needs defaults or metadata rules' });
    expect(validateParams(check, { rules: { metadata: { tier: { pro: 'gpt-4o' } } } }).issues[0]!.path).to.equal('rules.metadata.tier.pro');
    expect(validateParams(check, { rules: { extra: [] } }).ok).to.equal(false);
  });

  it('uses the matching metadata rules, their lists united', async () => {
    const pro = await run(check, { rules }, input('hi', { model: 'o1', metadata: { tier: 'pro' } }));
    expect(pro.verdict).to.equal(true);
    expect(pro.data).to.deep.equal({ requestedModel: 'o1', matchedRules: ['tier:pro'], usingDefaults: false });
    const team = await run(check, { rules }, input('hi', { model: 'o1', metadata: { tier: 'team' } }));
    expect(team).to.deep.equal({
      verdict: false,
      data: { requestedModel: 'o1', matchedRules: ['tier:team'], usingDefaults: false, explanation: 'model "o1" is not in the resolved list' },
    });
    expect((await run(check, { rules }, input('hi', { model: 'mistral-large', metadata: { tier: 'team', region: 'eu' } }))).verdict).to.equal(true);
  });

  it('falls back to the defaults when no rule matches', async () => {
    expect((await run(check, { rules }, input('hi', { model: 'gpt-4o-mini', metadata: { tier: 'free' } }))).verdict).to.equal(true);
    expect((await run(check, { rules }, input('hi', { model: 'gpt-4o' }))).verdict).to.equal(false);
  });

  it('nothing allowed fails; not inverts; prototype keys are not rules', async () => {
    const onlyMeta = { metadata: { tier: { pro: ['o1'] } } };
    expect((await run(check, { rules: onlyMeta }, input('hi', { model: 'o1' }))).verdict).to.equal(false);
    expect((await run(check, { rules, not: true }, input('hi', { model: 'o1', metadata: { tier: 'pro' } }))).verdict).to.equal(false);
    expect((await run(check, { rules }, input('hi', { model: 'gpt-4o', metadata: { tier: 'constructor' } }))).verdict).to.equal(false);
  });
});
