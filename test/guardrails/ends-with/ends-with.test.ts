import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import EndsWithGuardrail from '../../../guardrails/ends-with/index.js';
import type { EndsWithParams } from '../../../guardrails/ends-with/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.endsWith', () => {
  let check: TestableCheck<EndsWithParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(EndsWithGuardrail, 'default.endsWith')));
  after(() => runtime.close());

  it('validates params: suffix required, non-empty', () => {
    expect(validateParams(check, { suffix: 'END' }).ok).to.equal(true);
    expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'suffix', rule: 'is required' });
    expect(validateParams(check, { suffix: '' }).issues[0]).to.deep.equal({ path: 'suffix', rule: 'must be a non-empty string' });
  });

  it('passes when the text ends with the suffix, trailing space and one full stop allowed', async () => {
    expect(await run(check, { suffix: 'Thanks' }, output('Best regards. Thanks'))).to.deep.equal({ verdict: true, data: { endsWith: true } });
    expect((await run(check, { suffix: 'Thanks' }, output('Best regards. Thanks.\n'))).verdict).to.equal(true);
    expect(await run(check, { suffix: 'Thanks' }, output('Thanks, bye'))).to.deep.equal({
      verdict: false, data: { endsWith: false, explanation: 'the text does not end with the suffix' },
    });
  });

  it('inverts with not; empty text and unicode', async () => {
    expect((await run(check, { suffix: '?', not: true }, input('Is it?'))).verdict).to.equal(false);
    expect((await run(check, { suffix: 'x' }, input(''))).verdict).to.equal(false);
    expect((await run(check, { suffix: '🙂' }, input('ok 🙂'))).verdict).to.equal(true);
  });
});
