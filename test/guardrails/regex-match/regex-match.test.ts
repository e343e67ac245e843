import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import RegexMatchGuardrail from '../../../guardrails/regex-match/index.js';
import type { RegexMatchParams } from '../../../guardrails/regex-match/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.regexMatch', () => {
  let check: TestableCheck<RegexMatchParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(RegexMatchGuardrail, 'default.regexMatch')));
  after(() => runtime.close());

  describe('params', () => {
    it('accepts a rule, applying not=false by default', () => {
      const parsed = validateParams(check, { rule: '\\d+' });
      expect(parsed.ok).to.equal(true);
      expect(parsed.value.not).to.equal(false);
    });
    it('requires a non-empty rule', () => {
      expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'rule', rule: 'is required' });
      expect(validateParams(check, { rule: '' }).ok).to.equal(false);
    });
    it('rejects an expression that does not compile, naming it', () => {
      const parsed = validateParams(check, { rule: '(unclosed' });
      expect(parsed.ok).to.equal(false);
      expect(parsed.issues[0]!.path).to.equal('rule');
      expect(parsed.issues[0]!.rule).to.match(/must be a valid regular expression/);
    });
    it('rejects unknown keys and wrong types', () => {
      expect(validateParams(check, { rule: 'a', nott: true }).issues[0]).to.deep.equal({ path: 'nott', rule: 'is not an allowed key' });
      expect(validateParams(check, { rule: 'a', not: 'yes' }).issues[0]!.path).to.equal('not');
    });
  });

  it('passes when the request text matches, reporting the match', async () => {
    const result = await run(check, { rule: 'order #(\\d+)' }, input('about order #1234 please'));
    expect(result.verdict).to.equal(true);
    expect(result.data).to.deep.equal({ match: 'order #1234' });
  });

  it('fails when it does not match', async () => {
    const result = await run(check, { rule: '^yes$' }, input('no'));
    expect(result.verdict).to.equal(false);
    expect(result.data).to.deep.equal({ explanation: 'the text does not match the rule' });
  });

  it('with not: passes with null data when nothing matched, fails reporting the match', async () => {
    expect(await run(check, { rule: 'secret', not: true }, input('all public'))).to.deep.equal({ verdict: true, data: null });
    const hit = await run(check, { rule: 'secret', not: true }, input('a secret plan'));
    expect(hit).to.deep.equal({ verdict: false, data: { match: 'secret', explanation: 'the text matches the rule' } });
  });

  it('inverts with not: true (a block list)', async () => {
    expect((await run(check, { rule: 'secret', not: true }, input('a secret plan'))).verdict).to.equal(false);
    expect((await run(check, { rule: 'secret', not: true }, input('a public plan'))).verdict).to.equal(true);
  });

  it('reads the answer text on output phases', async () => {
    expect((await run(check, { rule: 'answer' }, output('the answer is 42'))).verdict).to.equal(true);
    expect((await run(check, { rule: 'question' }, output('the answer is 42'))).verdict).to.equal(false);
  });

  it('handles empty text, unicode and case-insensitivity', async () => {
    expect((await run(check, { rule: '.' }, input(''))).verdict).to.equal(false);
    expect((await run(check, { rule: '^$' }, input(''))).verdict).to.equal(true);
    expect((await run(check, { rule: 'café' }, input('un CAFÉ'))).verdict).to.equal(false);
    expect((await run(check, { rule: 'café', caseInsensitive: true }, input('un CAFÉ'))).verdict).to.equal(true);
    expect((await run(check, { rule: '😀' }, input('smile 😀'))).verdict).to.equal(true);
  });

  it('is stateless across calls with the same params object (no lastIndex carry-over)', async () => {
    const params = validateParams(check, { rule: 'a' }).value;
    for (let i = 0; i < 3; i++) expect((await check.check(input('a'), params, {} as never)).verdict).to.equal(true);
  });
});
