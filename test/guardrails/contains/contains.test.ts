import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import ContainsGuardrail from '../../../guardrails/contains/index.js';
import type { ContainsParams } from '../../../guardrails/contains/params.js';
import { input, loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.contains', () => {
  let check: TestableCheck<ContainsParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(ContainsGuardrail, 'default.contains')));
  after(() => runtime.close());

  it('validates params: words required and non-empty, operator any|all|none (default any)', () => {
    expect(validateParams(check, { words: ['a'] }).value).to.deep.equal({ words: ['a'], operator: 'any', caseSensitive: true });
    expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'words', rule: 'is required' });
    expect(validateParams(check, { words: [] }).issues[0]).to.deep.equal({ path: 'words', rule: 'must have at least 1 item(s)' });
    expect(validateParams(check, { words: [''] }).issues[0]).to.deep.equal({ path: 'words.0', rule: 'must be a non-empty string' });
    expect(validateParams(check, { words: ['a'], operator: 'some' }).issues[0]).to.deep.equal({ path: 'operator', rule: 'must be one of "any", "all", "none"' });
  });

  const text = 'Our partner Acme and the project Falcon';
  it('any: passes when one word occurs', async () => {
    const result = await run(check, { words: ['Globex', 'Acme'] }, output(text));
    expect(result.verdict).to.equal(true);
    expect(result.data).to.deep.equal({ found: ['Acme'], missing: ['Globex'] });
    const none = await run(check, { words: ['Globex'] }, output(text));
    expect(none).to.deep.equal({ verdict: false, data: { found: [], missing: ['Globex'], explanation: '0 of 1 word(s) found; operator "any" failed' } });
  });

  it('all: passes only when every word occurs', async () => {
    expect((await run(check, { words: ['Acme', 'Falcon'], operator: 'all' }, output(text))).verdict).to.equal(true);
    expect((await run(check, { words: ['Acme', 'Globex'], operator: 'all' }, output(text))).verdict).to.equal(false);
  });

  it('none: passes only when no word occurs (a block list)', async () => {
    expect((await run(check, { words: ['Globex'], operator: 'none' }, input(text))).verdict).to.equal(true);
    expect((await run(check, { words: ['Globex', 'Falcon'], operator: 'none' }, input(text))).verdict).to.equal(false);
  });

  it('is case-sensitive by default and case-insensitive on request, unicode included', async () => {
    expect((await run(check, { words: ['acme'] }, input(text))).verdict).to.equal(false);
    expect((await run(check, { words: ['acme'], caseSensitive: false }, input(text))).verdict).to.equal(true);
    expect((await run(check, { words: ['ÉCOLE'], caseSensitive: false }, input('une école'))).verdict).to.equal(true);
  });

  it('phrases and empty text', async () => {
    expect((await run(check, { words: ['project Falcon'] }, input(text))).verdict).to.equal(true);
    expect((await run(check, { words: ['x'] }, input(''))).verdict).to.equal(false);
    expect((await run(check, { words: ['x'], operator: 'none' }, input(''))).verdict).to.equal(true);
  });
});
