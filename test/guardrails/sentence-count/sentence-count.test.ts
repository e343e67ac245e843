import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import { countSentences } from '../../../guardrails/sentence-count/count.js';
import SentenceCountGuardrail from '../../../guardrails/sentence-count/index.js';
import type { SentenceCountParams } from '../../../guardrails/sentence-count/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.sentenceCount', () => {
  let check: TestableCheck<SentenceCountParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(SentenceCountGuardrail, 'default.sentenceCount')));
  after(() => runtime.close());

  describe('params', () => {
    it('defaults to 0..99999', () => {
      expect(validateParams(check, {}).value).to.deep.equal({ minSentences: 0, maxSentences: 99999, not: false });
    });
    it('rejects bad values and an inverted range', () => {
      expect(validateParams(check, { minSentences: 'two' }).issues[0]).to.deep.equal({ path: 'minSentences', rule: 'must be an integer' });
      expect(validateParams(check, { minSentences: 3, maxSentences: 1 }).ok).to.equal(false);
    });
  });

  it('counts sentences by terminators followed by space or the end', () => {
    expect(countSentences('')).to.equal(0);
    expect(countSentences('...')).to.equal(0);
    expect(countSentences('Hello')).to.equal(1);
    expect(countSentences('Hello. World')).to.equal(2);
    expect(countSentences('One. Two! Three? ')).to.equal(3);
    expect(countSentences('Pi is 3.14 roughly. Yes.')).to.equal(2);
    expect(countSentences('Wait... what?! Really.')).to.equal(3);
    expect(countSentences('He said "stop." Then left.')).to.equal(2);
    expect(countSentences('你好。世界！')).to.equal(2);
  });

  it('passes within the range, fails outside, inverts with not', async () => {
    expect(await run(check, { minSentences: 2, maxSentences: 2 }, input('One. Two.'))).to.deep.equal({ verdict: true, data: { sentenceCount: 2 } });
    const many = await run(check, { maxSentences: 1 }, output('One. Two. Three.'));
    expect(many.verdict).to.equal(false);
    expect(many.data).to.deep.equal({ sentenceCount: 3, explanation: 'the text has 3 sentence(s), outside 0-1' });
    expect((await run(check, { maxSentences: 1, not: true }, output('One. Two.'))).verdict).to.equal(true);
  });
});
