import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import ContainsCodeGuardrail from '../../../guardrails/contains-code/index.js';
import type { ContainsCodeParams } from '../../../guardrails/contains-code/params.js';
import { loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.containsCode', () => {
  let check: TestableCheck<ContainsCodeParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(ContainsCodeGuardrail, 'default.containsCode')));
  after(() => runtime.close());

  it('validates params: format is one of the known languages', () => {
    expect(validateParams(check, { format: 'SQL' }).ok).to.equal(true);
    expect(validateParams(check, {}).issues[0]).to.deep.equal({ path: 'format', rule: 'is required' });
    expect(validateParams(check, { format: 'sql' }).issues[0]!.rule).to.match(/^must be one of "SQL"/);
  });

  it('finds a fenced block by tag, aliases included', async () => {
    const text = 'Run this:\n```py\nprint(1)\n```\nthen\n```sql\nSELECT 1;\n```';
    const python = await run(check, { format: 'Python' }, output(text));
    expect(python.verdict).to.equal(true);
    expect(python.data).to.deep.equal({ foundFormats: ['Python', 'SQL'] });
    expect((await run(check, { format: 'SQL' }, output(text))).verdict).to.equal(true);
    const go = await run(check, { format: 'Go' }, output(text));
    expect(go).to.deep.equal({ verdict: false, data: { foundFormats: ['Python', 'SQL'], explanation: 'no Go code block found' } });
    expect((await run(check, { format: 'C++' }, output('```cpp\nint main(){}\n```'))).verdict).to.equal(true);
    expect((await run(check, { format: 'Shell' }, output('~~~bash\nls\n~~~'))).verdict).to.equal(true);
  });

  it('ignores untagged blocks, closing fences and prose; not blocks a language', async () => {
    expect((await run(check, { format: 'SQL' }, output('```\nSELECT 1;\n```'))).verdict).to.equal(false);
    expect((await run(check, { format: 'SQL' }, output('SELECT * FROM users;'))).verdict).to.equal(false);
    expect((await run(check, { format: 'SQL' }, output(''))).verdict).to.equal(false);
    expect((await run(check, { format: 'SQL', not: true }, output('no code'))).verdict).to.equal(true);
    expect((await run(check, { format: 'SQL', not: true }, output('```sql\nDROP TABLE x;\n```'))).verdict).to.equal(false);
  });
});
