/** Hook results in a log row: stored as positional arrays, shown as the objects clients know. */
import { expect } from 'chai';
import type { GuardrailRecord, HookResult } from '../../../core/index.js';
import { hookRowsText, hookRowsView } from '../../../plugins/request-logs/hook-rows.js';

const passing: HookResult = {
  id: 'input-checks', type: 'guardrail', verdict: true, deny: true, async: false, execution_time: 1,
  checks: [
    { id: 'default.regexMatch', verdict: true, data: { match: 'Hello' }, execution_time: 0 },
    { id: 'default.wordCount', verdict: true, data: null, execution_time: 1 },
  ],
};
const failing: HookResult = {
  id: 'audit', type: 'mutator', verdict: false, deny: false, async: true, execution_time: 7,
  checks: [
    { id: 'acme.flaky', verdict: false, data: { token: 'sk-abcdefghijklmnopqrstuvwx', note: 'n' }, error: { message: 'timed out after 5 ms' }, execution_time: 5 },
    { id: 'default.regexReplace', verdict: true, data: { replaced: 1 }, execution_time: 2, transformed: true },
  ],
  feedback: { value: -1, weight: 0.5, metadata: { why: 'x' } },
  transformed: true,
};
const records: GuardrailRecord[] = [
  { target: 'config', array: 'input_guardrails', inResponse: true, result: passing },
  { target: 'config.targets[1]', array: 'after_request_hooks', inResponse: false, result: failing },
];

/** What the log showed before the compact form: the record's fields, then the result's. */
function objectForm(r: GuardrailRecord, checks: unknown[]): Record<string, unknown> {
  return { target: r.target, array: r.array, in_response: r.inResponse, ...r.result, checks };
}

describe('observe.logs hook rows', () => {
  it('shows what it stored as objects: every field but check data, which is left out by default', () => {
    const text = hookRowsText(records, false)!;
    const expected = records.map((r) => objectForm(r, r.result.checks.map(({ data: _data, ...c }) => c)));
    expect(hookRowsView(text)).to.deep.equal(expected);
    expect(text).not.to.include('Hello');
    expect(text.length).to.be.below(JSON.stringify(expected).length * 0.6);
  });

  it('keeps check data with withData, redacted, and omits a null one', () => {
    const view = hookRowsView(hookRowsText(records, true)) as Record<string, any>[];
    expect(view[0]!.checks[0]).to.deep.equal({ id: 'default.regexMatch', verdict: true, data: { match: 'Hello' }, execution_time: 0 });
    expect(view[0]!.checks[1]).to.deep.equal({ id: 'default.wordCount', verdict: true, execution_time: 1 });
    expect(view[1]!.checks[0].data).to.deep.equal({ token: '[redacted]', note: 'n' });
    expect(view[1]!.checks[0].error).to.deep.equal({ message: 'timed out after 5 ms' });
  });

  it('is null without hooks, and shows rows in the older object form (or not JSON at all) as stored', () => {
    expect(hookRowsText(undefined, false)).to.equal(null);
    expect(hookRowsText([], false)).to.equal(null);
    expect(hookRowsView(null)).to.equal(null);
    const legacy = [objectForm(records[0]!, [])];
    expect(hookRowsView(JSON.stringify(legacy))).to.deep.equal(legacy);
    expect(hookRowsView('cut…')).to.equal('cut…');
  });
});
