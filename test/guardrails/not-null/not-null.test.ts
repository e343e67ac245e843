import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import NotNullGuardrail from '../../../guardrails/not-null/index.js';
import type { NotNullParams } from '../../../guardrails/not-null/params.js';
import { loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.notNull', () => {
  let check: TestableCheck<NotNullParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(NotNullGuardrail, 'default.notNull')));
  after(() => runtime.close());

  it('validates params', () => {
    expect(validateParams(check, {}).ok).to.equal(true);
    expect(validateParams(check, { not: 1 }).ok).to.equal(false);
  });

  it('passes with content, fails on empty or whitespace-only text (e.g. a tool-call-only answer)', async () => {
    expect(await run(check, {}, output('ok'))).to.deep.equal({ verdict: true, data: null });
    expect((await run(check, {}, output('😀'))).verdict).to.equal(true);
    expect(await run(check, {}, output(''))).to.deep.equal({ verdict: false, data: { explanation: 'the text is empty' } });
    expect((await run(check, {}, output(' \n\t'))).verdict).to.equal(false);
  });

  it('inverts with not', async () => {
    expect((await run(check, { not: true }, output(''))).verdict).to.equal(true);
    expect((await run(check, { not: true }, output('x'))).verdict).to.equal(false);
  });
});
