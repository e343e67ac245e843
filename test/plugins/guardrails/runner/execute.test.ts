/** Running checks and hooks: errored verdicts, time-outs (fake timers), no timers for synchronous checks. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { CheckInput, CheckResult, CheckVerdict, GuardrailCheck, RequestContext } from '../../../../core/index.js';
import { runCheck, runHooks } from '../../../../plugins/guardrails/runner/execute.js';
import type { CompiledCheck, CompiledHook } from '../../../../plugins/guardrails/runner/plan.js';
import { timersSetBy, type OwnTimers } from '../../../helpers/own-timers.js';

const ctx = {} as RequestContext;
const input = { phase: 'input', request: { json: {}, text: 'hello' }, metadata: {}, endpoint: 'chatComplete', signal: new AbortController().signal } as CheckInput;

function compiled(check: GuardrailCheck<any>['check'], extra: Partial<CompiledCheck> = {}): CompiledCheck {
  return { id: 'test.c', impl: { id: 'test.c', check }, params: {}, timeoutMs: 1000, failOnError: false, ...extra };
}

function hook(id: string, checks: CompiledCheck[], deny = false): CompiledHook {
  return { id, type: 'guardrail', async: false, deny, checks };
}

describe('guardrails.runner: execution', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  let timers: OwnTimers | undefined;
  /** Fake timers, counting only those the runner sets (see own-timers); restored with them. */
  const fakeTimers = () => {
    const fake = sinon.useFakeTimers();
    timers = timersSetBy(fake, 'plugins/guardrails/runner/execute');
    return { fake, own: timers };
  };
  afterEach(() => {
    timers?.restore();
    clock?.restore();
    timers = clock = undefined;
  });

  it('a synchronous check settles without a promise or a timer', () => {
    const { own } = fakeTimers();
    const run = runCheck(compiled(() => ({ verdict: false, data: { n: 1 } })), input, 'hello', ctx);
    expect(run).to.not.have.property('then');
    expect(own.pending()).to.equal(0);
    expect(run).to.deep.include({ id: 'test.c', verdict: false, data: { n: 1 } });
  });

  it('a check that returns no verdict is errored', () => {
    const run = runCheck(compiled(() => ({}) as CheckResult), input, 'hello', ctx) as CheckVerdict;
    expect(run.verdict).to.equal(true);
    expect(run.error?.message).to.equal('the check returned no verdict');
  });

  it('times out a slow check after its timeout (fake clock) and clears the timer of a fast one', async () => {
    const { fake, own } = fakeTimers();
    const slow = runCheck(compiled(() => new Promise(() => undefined), { timeoutMs: 10_000, failOnError: true }), input, 'hello', ctx) as Promise<CheckVerdict>;
    expect(own.pending()).to.equal(1);
    await fake.tickAsync(9_999);
    let settled = false;
    void slow.then(() => (settled = true));
    await fake.tickAsync(0);
    expect(settled).to.equal(false);
    await fake.tickAsync(1);
    const run = await slow;
    expect(run).to.deep.include({ verdict: false, error: { message: 'timed out after 10000 ms' } });

    const fast = runCheck(compiled(async () => ({ verdict: true })), input, 'hello', ctx);
    await fast;
    expect(own.pending()).to.equal(0);
  });

  it('times each synchronous check on its own, also when the one before it was slow or threw', () => {
    clock = sinon.useFakeTimers({ toFake: ['performance'] });
    const busy = (ms: number) => clock!.tick(ms); // a check that computes for ms, on the fake clock
    const slow = compiled(() => (busy(30), { verdict: true }));
    const quick = compiled(() => ({ verdict: true }));
    const throws = compiled(() => (busy(20), (() => { throw new Error('boom'); })()));
    const result = runHooks([hook('a', [slow, quick]), hook('b', [throws, quick, slow])], input, 'hello', ctx, { withText: () => input });
    if (result instanceof Promise) throw new Error('expected a synchronous phase');
    const times = result.results.map((r) => r.checks.map((c) => c.execution_time));
    expect(times).to.deep.equal([[30, 0], [20, 0, 30]]);
    expect(result.results.map((r) => r.execution_time)).to.deep.equal([30, 30]);
  });

  it('folds check verdicts into hook verdicts (synchronously for synchronous checks) and lists the denying hooks', async () => {
    const pass = compiled(() => ({ verdict: true }));
    const fail = compiled(() => ({ verdict: false }));
    const sync = runHooks([hook('a', [pass, fail], true), hook('b', [pass]), hook('c', [fail])], input, 'hello', ctx, { withText: () => input });
    // Synchronous checks: the whole phase settles without a promise.
    expect(sync).to.not.be.instanceOf(Promise);
    const result = await sync;
    expect(result.results.map((r) => [r.id, r.verdict])).to.deep.equal([['a', false], ['b', true], ['c', false]]);
    expect(result.failed).to.equal(true);
    expect(result.denied).to.deep.equal(['a']);
    expect(result.transformedText).to.equal(undefined);
  });

  it('a hook without checks passes', async () => {
    const result = await runHooks([hook('empty', [], true)], input, 'hello', ctx, { withText: () => input });
    expect(result.results[0]).to.include({ verdict: true });
    expect(result.denied).to.deep.equal([]);
  });

  it('an unchanged transformedText is not a transformation', async () => {
    const result = await runHooks([hook('same', [compiled((i) => ({ verdict: true, transformedText: i.request.text }))])], input, 'hello', ctx, { withText: () => input });
    expect(result.transformedText).to.equal(undefined);
    expect(result.results[0]!.transformed).to.equal(undefined);
  });
});
