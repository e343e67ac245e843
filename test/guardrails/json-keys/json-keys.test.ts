import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import JsonKeysGuardrail from '../../../guardrails/json-keys/index.js';
import type { JsonKeysParams } from '../../../guardrails/json-keys/params.js';
import { loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';

describe('guardrail default.jsonKeys', () => {
  let check: TestableCheck<JsonKeysParams>;
  let runtime: Runtime;
  before(async () => ({ check, runtime } = await loadCheck(JsonKeysGuardrail, 'default.jsonKeys')));
  after(() => runtime.close());

  it('validates params: keys required, operator default any', () => {
    expect(validateParams(check, { keys: ['id'] }).value).to.deep.equal({ keys: ['id'], operator: 'any' });
    expect(validateParams(check, { keys: [] }).ok).to.equal(false);
    expect(validateParams(check, { keys: ['id'], operator: 'every' }).ok).to.equal(false);
  });

  const answer = 'Sure: ```json\n{"id": 1, "name": "x"}\n```';
  it('any / all / none over the top-level keys', async () => {
    expect(await run(check, { keys: ['id', 'email'] }, output(answer))).to.deep.equal({ verdict: true, data: { presentKeys: ['id'], missingKeys: ['email'] } });
    const all = await run(check, { keys: ['id', 'email'], operator: 'all' }, output(answer));
    expect(all.verdict).to.equal(false);
    expect(all.data).to.deep.equal({ presentKeys: ['id'], missingKeys: ['email'], explanation: '1 of 2 key(s) present; operator "all" failed' });
    expect((await run(check, { keys: ['id', 'name'], operator: 'all' }, output(answer))).verdict).to.equal(true);
    expect((await run(check, { keys: ['password'], operator: 'none' }, output(answer))).verdict).to.equal(true);
    expect((await run(check, { keys: ['id'], operator: 'none' }, output(answer))).verdict).to.equal(false);
  });

  it('nested keys do not count; no JSON object fails whatever the operator', async () => {
    expect((await run(check, { keys: ['inner'] }, output('{"outer": {"inner": 1}}'))).verdict).to.equal(false);
    expect(await run(check, { keys: ['a'], operator: 'none' }, output('no json'))).to.deep.equal({ verdict: false, data: { jsonFound: false, explanation: 'no JSON object found in the text' } });
    expect((await run(check, { keys: ['a'], operator: 'none' }, output('[1,2]'))).verdict).to.equal(false);
  });

  it('takes the first candidate that passes', async () => {
    const text = '```json\n{"a":1}\n```\n```json\n{"b":2}\n```';
    expect((await run(check, { keys: ['b'] }, output(text))).verdict).to.equal(true);
  });
});
