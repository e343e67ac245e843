import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import { countCodePoints } from '../../../guardrails/character-count/check.js';
import CharacterCountGuardrail from '../../../guardrails/character-count/index.js';
import type { CharacterCountParams } from '../../../guardrails/character-count/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.characterCount', () => {
  let check: TestableCheck<CharacterCountParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(CharacterCountGuardrail, 'default.characterCount')));
  after(() => runtime.close());

  it('validates params: defaults, types, range order', () => {
    expect(validateParams(check, {}).value).to.deep.equal({ minCharacters: 0, maxCharacters: 9999999, not: false });
    expect(validateParams(check, { maxCharacters: -5 }).ok).to.equal(false);
    expect(validateParams(check, { minCharacters: 10, maxCharacters: 1 }).issues[0]!.rule).to.equal('must be <= maxCharacters');
  });

  it('counts code points, so an emoji or a CJK character counts once', () => {
    expect(countCodePoints('')).to.equal(0);
    expect(countCodePoints('abc')).to.equal(3);
    expect(countCodePoints('😀😀')).to.equal(2);
    expect(countCodePoints('日本語')).to.equal(3);
    expect(countCodePoints('\udc00 lone low surrogate')).to.equal(20);
  });

  it('passes within the range, fails outside, inverts with not', async () => {
    expect((await run(check, { maxCharacters: 3 }, input('abc'))).verdict).to.equal(true);
    expect(await run(check, { maxCharacters: 3 }, input('😀😀😀'))).to.deep.equal({ verdict: true, data: { characterCount: 3 } });
    const long = await run(check, { maxCharacters: 3 }, output('abcd'));
    expect(long.verdict).to.equal(false);
    expect(long.data).to.deep.equal({ characterCount: 4, explanation: 'the text has 4 character(s), outside 0-3' });
    expect((await run(check, { minCharacters: 1 }, input(''))).verdict).to.equal(false);
    expect((await run(check, { minCharacters: 1, not: true }, input(''))).verdict).to.equal(true);
  });
});
