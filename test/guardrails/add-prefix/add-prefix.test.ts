import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import AddPrefixGuardrail from '../../../guardrails/add-prefix/index.js';
import type { AddPrefixParams } from '../../../guardrails/add-prefix/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.addPrefix', () => {
  let check: TestableCheck<AddPrefixParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(AddPrefixGuardrail, 'default.addPrefix')));
  after(() => runtime.close());

  it('validates params: a non-empty prefix', () => {
    expect(validateParams(check, { prefix: 'Be brief. ' }).ok).to.equal(true);
    expect(validateParams(check, { prefix: '' }).ok).to.equal(false);
    expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'prefix', rule: 'is required' });
    // The runner writes texts back line by line: a prefix must not add lines.
    expect(validateParams(check, { prefix: 'Context:\nbe brief' }).issues[0]).to.deep.equal({ path: 'prefix', rule: 'must not contain line breaks' });
  });

  it('returns the prefixed text as transformedText and passes', async () => {
    const result = await run(check, { prefix: 'Answer in French: ' }, input('hello'));
    expect(result).to.deep.equal({ verdict: true, data: { added: true }, transformedText: 'Answer in French: hello' });
    expect((await run(check, { prefix: '⚠️ ' }, output('answer'))).transformedText).to.equal('⚠️ answer');
    expect((await run(check, { prefix: '> ' }, input(''))).transformedText).to.equal('> ');
  });

  it('leaves a text that already has the prefix alone (retries and fallbacks)', async () => {
    const result = await run(check, { prefix: 'P: ' }, input('P: already'));
    expect(result).to.deep.equal({ verdict: true, data: { added: false } });
  });
});
