import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import LetterCaseGuardrail from '../../../guardrails/letter-case/index.js';
import type { LetterCaseParams } from '../../../guardrails/letter-case/params.js';
import { bootChecks, checkFrom, input, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrails default.alluppercase and default.alllowercase', () => {
  let upper: TestableCheck<LetterCaseParams>;
  let lower: TestableCheck<LetterCaseParams>;
  let runtime: Runtime;
  before(async () => {
    runtime = await bootChecks(LetterCaseGuardrail);
    upper = checkFrom(runtime, 'default.alluppercase');
    lower = checkFrom(runtime, 'default.alllowercase');
  });
  after(() => runtime.close());

  it('validates params: only not', () => {
    expect(validateParams(upper, {}).value).to.deep.equal({ not: false });
    expect(validateParams(lower, { upper: true }).ok).to.equal(false);
  });

  it('alluppercase passes when no letter is lower case (digits and punctuation ignored)', async () => {
    expect(await run(upper, {}, input('HELLO, WORLD 42!'))).to.deep.equal({ verdict: true, data: null });
    expect(await run(upper, {}, output('Hello'))).to.deep.equal({ verdict: false, data: { offendingLetter: 'e', explanation: 'the text is not all uppercase' } });
    expect((await run(upper, {}, input('ÉCOLE ÄÖÜ'))).verdict).to.equal(true);
    expect((await run(upper, {}, input('straße'))).verdict).to.equal(false);
  });

  it('alllowercase passes when no letter is upper case', async () => {
    expect((await run(lower, {}, input('hello, world 42!'))).verdict).to.equal(true);
    expect((await run(lower, {}, input('hello World'))).verdict).to.equal(false);
    expect((await run(lower, {}, input('école'))).verdict).to.equal(true);
  });

  it('texts without letters (empty, digits, uncased scripts) pass both; not inverts', async () => {
    for (const text of ['', '12345', '日本語']) {
      expect((await run(upper, {}, input(text))).verdict).to.equal(true);
      expect((await run(lower, {}, input(text))).verdict).to.equal(true);
    }
    expect(await run(upper, { not: true }, input('SHOUT'))).to.deep.equal({ verdict: false, data: { explanation: 'the text is all uppercase' } });
    expect(await run(lower, { not: true }, input('Mixed'))).to.deep.equal({ verdict: true, data: { offendingLetter: 'M' } });
  });
});
