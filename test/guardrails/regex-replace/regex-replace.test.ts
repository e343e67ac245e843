import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import RegexReplaceGuardrail from '../../../guardrails/regex-replace/index.js';
import type { RegexReplaceParams } from '../../../guardrails/regex-replace/params.js';
import { CTX, input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.regexReplace', () => {
  let check: TestableCheck<RegexReplaceParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(RegexReplaceGuardrail, 'default.regexReplace')));
  after(() => runtime.close());

  it('validates params: a compiling rule, one replacement name', () => {
    expect(validateParams(check, { rule: 'x' }).value).to.deep.equal({ rule: 'x', caseInsensitive: false, failOnDetection: false });
    expect(validateParams(check, { rule: '*' }).issues[0]!.path).to.equal('rule');
    expect(validateParams(check, { rule: 'x', replacement: 'a', redactText: 'b' }).issues[0]).to.deep.equal({
      path: 'redactText', rule: 'must not be given together with replacement',
    });
  });

  it('replaces every match, [REDACTED] by default, and passes', async () => {
    const result = await run(check, { rule: 'PROJ-\\d+' }, input('see PROJ-12 and PROJ-7'));
    expect(result).to.deep.include({ verdict: true, transformedText: 'see [REDACTED] and [REDACTED]' });
    expect(result.data).to.deep.equal({ replacements: 2 });
  });

  it('uses replacement or redactText, with group references', async () => {
    expect((await run(check, { rule: 'Falcon', replacement: 'Project X' }, output('Falcon ships'))).transformedText).to.equal('Project X ships');
    expect((await run(check, { rule: '(\\w+)@(\\w+)\\.com', redactText: '$1 at $2' }, input('mail ada@acme.com'))).transformedText).to.equal('mail ada at acme');
  });

  it('no match: no transform; failOnDetection fails while still redacting', async () => {
    const none = await run(check, { rule: 'zzz' }, input('abc'));
    expect(none).to.deep.equal({ verdict: true, data: { replacements: 0 } });
    const fail = await run(check, { rule: 'secret', failOnDetection: true }, input('a secret'));
    expect(fail).to.deep.include({ verdict: false, transformedText: 'a [REDACTED]' });
    expect(fail.data).to.deep.equal({ replacements: 1, explanation: '1 match(es) found and detection fails the check' });
  });

  it('case-insensitive, unicode, empty matches and repeated calls', async () => {
    expect((await run(check, { rule: 'ÉTÉ', caseInsensitive: true, replacement: '*' }, input('un été chaud'))).transformedText).to.equal('un * chaud');
    expect((await run(check, { rule: 'x*', replacement: '-' }, input('ab'))).transformedText).to.equal('-a-b-');
    const params = validateParams(check, { rule: 'a' }).value;
    for (let i = 0; i < 3; i++) expect((await check.check(input('aa'), params, CTX)).transformedText).to.equal('[REDACTED][REDACTED]');
  });
});
