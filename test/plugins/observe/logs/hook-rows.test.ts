/** Hook results in a log row: stored as positional arrays, shown as the objects clients know. */
import { expect } from 'chai';
import type { GuardrailRecord, HookResult } from '../../../../core/index.js';
import { hookRowsText, hookRowsView } from '../../../../plugins/observe/logs/hook-rows.js';

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

  it('writes exactly the JSON of the positional form, whatever the ids, times and extras hold', () => {
    const odd: GuardrailRecord = {
      target: 'config.targets[0]', array: 'output_guardrails', inResponse: false,
      result: {
        id: 'q"uote\\é', type: 'mutator', verdict: false, deny: false, async: false, execution_time: Number.NaN,
        checks: [
          { id: 'acme.ünïcode\n', verdict: true, data: { s: 'x' }, execution_time: 1e21 },
          { id: 'acme.slow', verdict: false, data: null, execution_time: 64 },
          { id: 'acme.neg', verdict: true, data: null, execution_time: -0 },
          { id: 'acme.frac', verdict: true, data: null, execution_time: 2.5 },
        ],
      },
    };
    const slowHook: GuardrailRecord = { target: 'config', array: 'before_request_hooks', inResponse: true, result: { ...passing, execution_time: 100 } };
    const bit = (b: boolean | undefined) => (b ? 1 : 0);
    const positional = (list: GuardrailRecord[], withData: boolean) => list.map(({ target, array, inResponse, result: r }) => {
      const checks = r.checks.map((c) => {
        const row: unknown[] = [c.id, bit(c.verdict), c.execution_time];
        const extra: Record<string, unknown> = {};
        if (withData && c.data !== null && c.data !== undefined) extra['data'] = c.data;
        if (c.error !== undefined) extra['error'] = c.error;
        if (c.transformed !== undefined) extra['transformed'] = c.transformed;
        if (Object.keys(extra).length > 0) row.push(extra);
        return row;
      });
      const row: unknown[] = [target, array, bit(inResponse), r.id, r.type, bit(r.verdict), bit(r.deny), bit(r.async), r.execution_time, checks];
      const extra: Record<string, unknown> = {};
      if (r.feedback !== undefined) extra['feedback'] = r.feedback;
      if (r.transformed !== undefined) extra['transformed'] = r.transformed;
      if (Object.keys(extra).length > 0) row.push(extra);
      return row;
    });
    const list = [records[0]!, odd, slowHook, { ...records[0]!, result: { ...passing, checks: [] } }];
    expect(hookRowsText(list, false)).to.equal(JSON.stringify(positional(list, false)));
    expect(hookRowsText(list, true)).to.equal(JSON.stringify(positional(list, true)));
    // With redacted data aside, the failing record's row is that JSON too.
    expect(JSON.parse(hookRowsText(records, false)!)).to.deep.equal(positional(records, false));
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
