import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import { countWords } from '../../../guardrails/word-count/count.js';
import WordCountGuardrail from '../../../guardrails/word-count/index.js';
import type { WordCountParams } from '../../../guardrails/word-count/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.wordCount', () => {
  let check: TestableCheck<WordCountParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(WordCountGuardrail, 'default.wordCount')));
  after(() => runtime.close());

  describe('params', () => {
    it('defaults to 0..99999, not=false', () => {
      expect(validateParams(check, {}).value).to.deep.equal({ minWords: 0, maxWords: 99999, not: false });
    });
    it('rejects negative, fractional and inverted ranges', () => {
      expect(validateParams(check, { minWords: -1 }).issues[0]).to.deep.equal({ path: 'minWords', rule: 'must be >= 0' });
      expect(validateParams(check, { maxWords: 2.5 }).issues[0]).to.deep.equal({ path: 'maxWords', rule: 'must be an integer' });
      expect(validateParams(check, { minWords: 5, maxWords: 2 }).issues[0]).to.deep.equal({ path: 'minWords', rule: 'must be <= maxWords' });
    });
  });

  it('counts words as runs of non-space, any whitespace separating', () => {
    expect(countWords('')).to.equal(0);
    expect(countWords('   \n\t ')).to.equal(0);
    expect(countWords('one')).to.equal(1);
    expect(countWords('  one  two\nthree\tfour  ')).to.equal(4);
    expect(countWords('non\u00a0breaking\u3000ideographic space')).to.equal(4);
    expect(countWords('héllo wörld 😀')).to.equal(3);
  });

  it('passes within the range and fails outside, bounds included', async () => {
    const params = { minWords: 2, maxWords: 3 };
    expect(await run(check, params, input('one two'))).to.deep.equal({ verdict: true, data: { wordCount: 2 } });
    expect((await run(check, params, input('one two three'))).verdict).to.equal(true);
    expect((await run(check, params, input('one'))).verdict).to.equal(false);
    const over = await run(check, params, input('one two three four'));
    expect(over.verdict).to.equal(false);
    expect(over.data).to.deep.equal({ wordCount: 4, explanation: 'the text has 4 word(s), outside 2-3' });
  });

  it('inverts with not, and judges the answer on output phases', async () => {
    expect((await run(check, { maxWords: 2, not: true }, input('one two three'))).verdict).to.equal(true);
    expect((await run(check, { maxWords: 2 }, output('a b c d'))).verdict).to.equal(false);
  });

  it('treats empty text as zero words', async () => {
    expect((await run(check, { minWords: 1 }, input(''))).verdict).to.equal(false);
    expect((await run(check, { maxWords: 0 }, input(''))).verdict).to.equal(true);
  });
});
