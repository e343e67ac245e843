/** hook_results written field by field: the same text JSON.stringify gives for the runner's results. */
import { expect } from 'chai';
import type { CheckVerdict, HookResult } from '../../../../core/index.js';
import { hookResultJson, hookResultsJson } from '../../../../plugins/guardrails/runner/hook-json.js';

function check(id: string, extra: Partial<CheckVerdict> = {}): CheckVerdict {
  // The runner's field order: id, verdict, data, (error), execution_time, (transformed).
  const c: CheckVerdict = { id, verdict: extra.verdict ?? true, data: extra.data ?? null, execution_time: extra.execution_time ?? 0 };
  if (extra.error) {
    const { execution_time, ...rest } = c;
    return extra.transformed === undefined ? { ...rest, error: extra.error, execution_time } : { ...rest, error: extra.error, execution_time, transformed: extra.transformed };
  }
  if (extra.transformed !== undefined) c.transformed = extra.transformed;
  return c;
}

function hook(id: string, checks: CheckVerdict[], extra: Partial<HookResult> = {}): HookResult {
  const r: HookResult = { id, type: extra.type ?? 'guardrail', verdict: extra.verdict ?? true, deny: extra.deny ?? false, async: false, checks, execution_time: extra.execution_time ?? 3 };
  if (extra.feedback) r.feedback = extra.feedback;
  if (extra.transformed) r.transformed = true;
  return r;
}

const results = {
  before_request_hooks: [
    hook('in "quoted" ü', [
      check('default.regexMatch', { data: { match: 'Hé said "hi"\n\u2028' } }),
      check('default.wordCount', { data: { wordCount: 2 }, execution_time: 12 }),
      check('acme.flaky', { verdict: false, error: { message: 'timed out after 5 ms' }, execution_time: 5 }),
    ], { verdict: false, deny: false, feedback: { value: -1, weight: 0.5, metadata: { why: 'x' } } }),
  ],
  after_request_hooks: [
    hook('out', [check('default.regexReplace', { data: { replaced: 2 }, transformed: true })], { transformed: true, type: 'mutator' }),
    hook('empty', []),
  ],
};

describe('guardrails.runner: hook results as JSON text', () => {
  it('writes every time as JSON.stringify does, the kept small ones and the others', () => {
    for (const t of [0, 1, 63, 64, 1000, -0, -1, 2.5]) {
      const r = hook('h', [check('c', { data: { n: 1 }, execution_time: t }), check('d', { verdict: false, execution_time: t })], { execution_time: t });
      expect(hookResultJson(r), `time ${t}`).to.equal(JSON.stringify(r));
    }
  });

  it('equals JSON.stringify of the runner\'s results (escapes, errors, feedback, transformations)', () => {
    expect(hookResultsJson(results)).to.equal(JSON.stringify(results));
    expect(hookResultsJson({ before_request_hooks: [], after_request_hooks: [] })).to.equal('{"before_request_hooks":[],"after_request_hooks":[]}');
  });

  it('writes any check data as JSON.stringify does (plain, nested, null and undefined values, toJSON, other prototypes)', () => {
    class Finding {
      constructor(readonly kind: string) {}
    }
    const values: unknown[] = [
      null, 'text', 3, [1, 'a'], {}, { match: 'a "b"\n', count: -0, ok: false },
      { n: null, u: undefined, s: 'x' }, { nested: { deep: [1] } }, { nan: Number.NaN }, { big: 1e21, small: 1.5e-7 },
      { toJSON: () => ({ replaced: true }) }, new Finding('pii'), new Date(0), Object.assign(Object.create(null), { bare: 1 }),
      { 2: 'two', 1: 'one', b: 'b', a: 'a' },
    ];
    for (const data of values) {
      const r = hook('h', [check('c', { data })]);
      expect(hookResultJson(r), JSON.stringify(data)).to.equal(JSON.stringify(r));
    }
  });

  it('writes a non-finite time as null and keeps odd data values valid JSON', () => {
    const r = hook('h', [check('c', { data: undefined, execution_time: Number.NaN })], { execution_time: Number.POSITIVE_INFINITY });
    (r.checks[0] as { data: unknown }).data = undefined;
    expect(JSON.parse(hookResultJson(r))).to.deep.equal(JSON.parse(JSON.stringify(r)));
  });
});
