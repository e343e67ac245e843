/** guardrails.runner end to end: verdicts, statuses, hook_results, errors, timing, inheritance, fallback. */
import { expect } from 'chai';
import type { GuardrailRecord } from '../../../../core/index.js';
import type { MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { chat, closeAll, eventually, leaf, recordsObserver, seen, send, startGuardedGateway, startMocks } from './harness.js';

describe('guardrails.runner (end to end)', () => {
  let gw: TestGateway;
  let mocks: MockOpenAI[];
  const records: GuardrailRecord[][] = [];

  before(async () => {
    gw = await startGuardedGateway({ plugins: [recordsObserver(records)] });
    mocks = await startMocks(2);
  });
  afterEach(() => {
    mocks.forEach((m) => m.reset());
    seen.reset();
    records.length = 0;
  });
  after(async () => {
    await closeAll(mocks);
    await gw.stop();
  });

  const noSecret = (extra: Record<string, unknown> = {}) => ({ id: 'no-secret', deny: true, 'test.forbid': { word: 'secret' }, ...extra });

  describe('input guardrails', () => {
    it('denies with 446, the envelope and hook_results, and never calls the provider', async () => {
      const res = await send(gw, leaf(mocks[0]!, { input_guardrails: [noSecret()] }), chat('tell me the secret'));
      expect(res.status).to.equal(446);
      expect(res.json.error).to.include({ type: 'hooks_failed', code: 'guardrail_denied' });
      expect(res.json.error.message).to.contain('"no-secret"');
      expect(res.json.provider).to.equal('gw');
      const [hook] = res.json.hook_results.before_request_hooks;
      expect(res.json.hook_results.after_request_hooks).to.deep.equal([]);
      expect(hook).to.include({ id: 'no-secret', verdict: false, deny: true, async: false, type: 'guardrail' });
      expect(hook.checks).to.have.length(1);
      expect(hook.checks[0]).to.include({ id: 'test.forbid', verdict: false });
      expect(hook.checks[0].data).to.deep.equal({ word: 'secret', found: true });
      expect(hook.checks[0].execution_time).to.be.a('number');
      expect(hook.execution_time).to.be.a('number');
      expect(mocks[0]!.requests).to.have.length(0);
    });

    it('answers 246 with hook_results added to the normal answer when the failing guardrail does not deny', async () => {
      const res = await send(gw, leaf(mocks[0]!, { input_guardrails: [noSecret({ deny: false })] }), chat('tell me the secret'));
      expect(res.status).to.equal(246);
      expect(res.json.object).to.equal('chat.completion');
      expect(res.json.choices[0].message.content).to.equal('echo: tell me the secret');
      expect(res.json.hook_results.before_request_hooks[0]).to.include({ id: 'no-secret', verdict: false, deny: false });
      expect(mocks[0]!.requests).to.have.length(1);
    });

    it('answers 200 with hook_results when every guardrail passes', async () => {
      const res = await send(gw, leaf(mocks[0]!, { input_guardrails: [noSecret()] }), chat('hello'));
      expect(res.status).to.equal(200);
      expect(res.json.choices[0].message.content).to.equal('echo: hello');
      expect(res.json.hook_results).to.deep.include({ after_request_hooks: [] });
      expect(res.json.hook_results.before_request_hooks[0]).to.include({ id: 'no-secret', verdict: true });
    });

    it('leaves the answer untouched (no hook_results, nothing recorded) for a target without hooks', async () => {
      const res = await send(gw, leaf(mocks[0]!), chat('hello'));
      expect(res.status).to.equal(200);
      expect(res.json).to.not.have.property('hook_results');
      expect(records[0]).to.deep.equal([]);
    });

    it('names an inline guardrail without id by its place; checks can read the request metadata', async () => {
      const config = leaf(mocks[0]!, { input_guardrails: [{ 'test.requireMeta': { key: 'team' }, deny: true }] });
      const denied = await send(gw, config, chat('hi'));
      expect(denied.status).to.equal(446);
      expect(denied.json.hook_results.before_request_hooks[0].id).to.equal('input_guardrails.0');
      const passed = await send(gw, config, chat('hi'), { 'x-gw-metadata': JSON.stringify({ team: 'search' }) });
      expect(passed.status).to.equal(200);
    });
  });

  describe('before_request_hooks', () => {
    it('runs hook objects with checks [{id, parameters}] before the input guardrails, both listed in before_request_hooks', async () => {
      const config = leaf(mocks[0]!, {
        before_request_hooks: [{ id: 'meta', type: 'guardrail', checks: [{ id: 'test.requireMeta', parameters: { key: 'team' } }] }],
        input_guardrails: [noSecret()],
      });
      const res = await send(gw, config, chat('hello'), { 'x-gw-metadata': JSON.stringify({ team: 'a' }) });
      expect(res.status).to.equal(200);
      expect(res.json.hook_results.before_request_hooks.map((h: { id: string }) => h.id)).to.deep.equal(['meta', 'no-secret']);
    });

    it('stops at a denying before-request hook: input guardrails do not run', async () => {
      const config = leaf(mocks[0]!, {
        before_request_hooks: [{ id: 'meta', deny: true, checks: [{ id: 'test.requireMeta', parameters: { key: 'team' } }] }],
        input_guardrails: [noSecret()],
      });
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(446);
      expect(res.json.hook_results.before_request_hooks.map((h: { id: string }) => h.id)).to.deep.equal(['meta']);
      expect(seen.calls).to.have.length(0);
    });
  });

  describe('output guardrails and after_request_hooks', () => {
    it('deny the answer with 446 and hook_results listing input and output results', async () => {
      const config = leaf(mocks[0]!, { input_guardrails: [noSecret()], output_guardrails: [{ id: 'no-echo', deny: true, 'test.forbid': { word: 'echo' } }] });
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(446);
      expect(res.json.error.message).to.contain('"no-echo"');
      expect(res.json).to.not.have.property('choices');
      expect(res.json.hook_results.before_request_hooks[0]).to.include({ id: 'no-secret', verdict: true });
      expect(res.json.hook_results.after_request_hooks[0]).to.include({ id: 'no-echo', verdict: false, deny: true });
      expect(seen.calls.map((c) => c.phase)).to.deep.equal(['input', 'output']);
      expect(seen.calls[1]!.text).to.equal('echo: hello');
      expect(res.headers.get('x-gw-provider')).to.equal('openai');
    });

    it('answer 246 when an output guardrail without deny fails, and after_request_hooks see the answer too', async () => {
      const config = leaf(mocks[0]!, {
        output_guardrails: [{ id: 'no-echo', 'test.forbid': { word: 'echo' } }],
        after_request_hooks: [{ id: 'short', checks: [{ id: 'test.maxWords', parameters: { max: 2 } }] }],
      });
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(246);
      expect(res.json.choices[0].message.content).to.equal('echo: hello');
      expect(res.json.hook_results.after_request_hooks.map((h: { id: string; verdict: boolean }) => [h.id, h.verdict])).to.deep.equal([['no-echo', false], ['short', true]]);
    });

    it('let checks read the answer as JSON, directly and in a serialised copy, alongside its text', async () => {
      const config = leaf(mocks[0]!, { output_guardrails: [{ id: 'model', deny: true, 'test.answerModel': { model: 'gpt-4o-mini' }, 'test.forbid': { word: 'secret' } }] });
      const res = await send(gw, config, chat('hello', { model: 'gpt-4o-mini' }));
      expect(res.status).to.equal(200);
      const checks = res.json.hook_results.after_request_hooks[0].checks;
      expect(checks[0]).to.deep.include({ id: 'test.answerModel', verdict: true, data: { direct: 'gpt-4o-mini', copied: 'gpt-4o-mini' } });
      expect(seen.calls.at(-1)!.text).to.equal('echo: hello');
      const other = await send(gw, config, chat('hello', { model: 'gpt-other' }));
      expect(other.status).to.equal(446);
    });

    it('on_fail.deny makes an output guardrail blocking', async () => {
      const config = leaf(mocks[0]!, { output_guardrails: [{ id: 'no-echo', on_fail: { deny: true }, 'test.forbid': { word: 'echo' } }] });
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(446);
      expect(res.json.hook_results.after_request_hooks[0]).to.include({ id: 'no-echo', deny: true });
    });

    it('a denying after_request_hook turns the answer into 446', async () => {
      const config = leaf(mocks[0]!, { after_request_hooks: [{ id: 'short', deny: true, checks: [{ id: 'test.maxWords', parameters: { max: 2 } }] }] });
      const res = await send(gw, config, chat('one two three'));
      expect(res.status).to.equal(446);
      expect(res.json.hook_results.after_request_hooks[0].checks[0].data).to.deep.equal({ words: 4, max: 2 });
    });

    it('do not run on a provider error, which passes through untouched', async () => {
      mocks[0]!.next({ status: 500 });
      const config = leaf(mocks[0]!, { output_guardrails: [{ id: 'no-echo', deny: true, 'test.forbid': { word: 'echo' } }] });
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(500);
      expect(res.json).to.not.have.property('hook_results');
      expect(seen.calls).to.have.length(0);
    });
  });

  describe('errored checks', () => {
    const guard = (params: Record<string, unknown>, check = 'test.broken') => ({ input_guardrails: [{ id: 'flaky', deny: true, [check]: params }] });

    it('a check that throws passes with its error recorded; with failOnError it fails (and denies)', async () => {
      const passed = await send(gw, leaf(mocks[0]!, guard({})), chat('hi'));
      expect(passed.status).to.equal(200);
      const check = passed.json.hook_results.before_request_hooks[0].checks[0];
      expect(check).to.include({ id: 'test.broken', verdict: true });
      expect(check.error).to.deep.equal({ message: 'check exploded' });

      const denied = await send(gw, leaf(mocks[0]!, guard({ failOnError: true })), chat('hi'));
      expect(denied.status).to.equal(446);
      expect(denied.json.hook_results.before_request_hooks[0].checks[0]).to.deep.include({ verdict: false, error: { message: 'check exploded' } });
    });

    it('a check whose promise rejects is errored the same way', async () => {
      const res = await send(gw, leaf(mocks[0]!, guard({ async: true, failOnError: true })), chat('hi'));
      expect(res.status).to.equal(446);
      expect(res.json.hook_results.before_request_hooks[0].checks[0].error.message).to.equal('check service down');
    });

    it('a check that outlives its timeout is errored, and its signal is aborted', async () => {
      const started = performance.now();
      const res = await send(gw, leaf(mocks[0]!, guard({ timeout: 50 }, 'test.hang')), chat('hi'));
      const took = performance.now() - started;
      expect(res.status).to.equal(200);
      const check = res.json.hook_results.before_request_hooks[0].checks[0];
      expect(check).to.deep.include({ verdict: true, error: { message: 'timed out after 50 ms' } });
      expect(took).to.be.within(45, 1000);
      expect(seen.aborted).to.deep.equal(['hang']);

      const denied = await send(gw, leaf(mocks[0]!, guard({ timeout: 30, failOnError: true }, 'test.hang')), chat('hi'));
      expect(denied.status).to.equal(446);
    });
  });

  describe('timing', () => {
    it('runs the checks of a hook, and the hooks of an array, in parallel', async () => {
      const config = leaf(mocks[0]!, {
        input_guardrails: [
          { id: 'a', 'test.slow': { ms: 100 }, 'test.forbid': { word: 'x' } },
          { id: 'b', 'test.slow': { ms: 100, label: 'b' } },
        ],
        before_request_hooks: [{ id: 'c', checks: [{ id: 'test.slow', parameters: { ms: 100 } }, { id: 'test.slow', parameters: { ms: 100 } }] }],
      });
      await send(gw, leaf(mocks[0]!), chat('warm up'));
      const started = performance.now();
      const res = await send(gw, config, chat('hi'));
      const took = performance.now() - started;
      expect(res.status).to.equal(200);
      // Two phases (before_request_hooks, then input_guardrails) of ~100 ms each, not 4 x 100 ms.
      expect(took).to.be.within(190, 330);
      const [c, a, b] = res.json.hook_results.before_request_hooks;
      expect(c.execution_time).to.be.within(95, 160);
      expect(a.execution_time).to.be.within(95, 160);
      expect(b.execution_time).to.be.within(95, 160);
    });

    it('three 100 ms checks in one hook take ~100 ms, not 300', async () => {
      const config = leaf(mocks[0]!, {
        before_request_hooks: [{ id: 'three', checks: [0, 1, 2].map((i) => ({ id: 'test.slow', parameters: { ms: 100, label: `s${i}` } })) }],
      });
      const started = performance.now();
      const res = await send(gw, config, chat('hi'));
      const took = performance.now() - started;
      expect(res.status).to.equal(200);
      expect(took).to.be.within(95, 200);
    });

    it('async hooks never delay the answer; their results reach ctx.values (and the log) later', async () => {
      const config = leaf(mocks[0]!, {
        input_guardrails: [{ id: 'background', async: true, deny: true, 'test.slow': { ms: 300, verdict: false } }],
        after_request_hooks: [{ id: 'audit', async: true, checks: [{ id: 'test.slow', parameters: { ms: 300, label: 'audit' } }] }],
      });
      await send(gw, leaf(mocks[0]!), chat('warm up'));
      records.length = 0;
      const started = performance.now();
      const res = await send(gw, config, chat('hi'));
      const took = performance.now() - started;
      expect(took).to.be.below(150);
      // A failed async hook neither denies nor marks the answer.
      expect(res.status).to.equal(200);
      expect(res.json).to.not.have.property('hook_results');
      const list = records[0]!;
      expect(list).to.have.length(0);
      await eventually(() => list.length === 2);
      const byId = Object.fromEntries(list.map((r) => [r.result.id, r]));
      expect(byId['background']).to.deep.include({ array: 'input_guardrails', inResponse: false, target: 'config' });
      expect(byId['background']!.result).to.include({ verdict: false, async: true });
      expect(byId['audit']!.array).to.equal('after_request_hooks');
    });
  });

  describe('feedback and records', () => {
    it('records on_success / on_fail feedback in the result and in ctx.values', async () => {
      const feedback = { on_fail: { feedback: { value: -5, weight: 1, metadata: { reason: 'leak' } } }, on_success: { feedback: { value: 1, weight: 0.5 } } };
      const config = leaf(mocks[0]!, { input_guardrails: [{ id: 'g', 'test.forbid': { word: 'secret' }, ...feedback }] });
      const failed = await send(gw, config, chat('the secret'));
      expect(failed.json.hook_results.before_request_hooks[0].feedback).to.deep.equal({ value: -5, weight: 1, metadata: { reason: 'leak' } });
      const passed = await send(gw, config, chat('hello'));
      expect(passed.json.hook_results.before_request_hooks[0].feedback).to.deep.equal({ value: 1, weight: 0.5 });
      expect(records[0]![0]).to.deep.include({ target: 'config', array: 'input_guardrails', inResponse: true });
      expect(records[0]![0]!.result.feedback).to.deep.equal({ value: -5, weight: 1, metadata: { reason: 'leak' } });
    });
  });

  describe('targets', () => {
    it('children inherit guardrails; a child that sets its own array replaces the inherited one', async () => {
      const config = {
        strategy: { mode: 'loadbalance' },
        input_guardrails: [noSecret()],
        targets: [leaf(mocks[0]!, { weight: 1 }), leaf(mocks[1]!, { weight: 0 })],
      };
      const inherited = await send(gw, config, chat('the secret'));
      expect(inherited.status).to.equal(446);
      const own = await send(gw, { ...config, targets: [leaf(mocks[0]!, { input_guardrails: [] })] }, chat('the secret'));
      expect(own.status).to.equal(200);
      expect(own.json).to.not.have.property('hook_results');
    });

    it('falls back to the next target when an output guardrail denies (446 is a fallback trigger)', async () => {
      const config = {
        strategy: { mode: 'fallback' },
        targets: [
          leaf(mocks[0]!, { output_guardrails: [{ id: 'no-echo', deny: true, 'test.forbid': { word: 'echo' } }] }),
          leaf(mocks[1]!),
        ],
      };
      const res = await send(gw, config, chat('hello'));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      expect(res.json.choices[0].message.content).to.equal('echo: hello');
      expect(mocks.map((m) => m.requests.length)).to.deep.equal([1, 1]);
      // Both attempts are recorded for the logs, the denied one first.
      expect(records[0]!.map((r) => [r.target, r.array, r.result.verdict])).to.deep.equal([['config.targets[0]', 'output_guardrails', false]]);
    });

    it('serves the 446 when every target is denied, and on_status_codes can exclude it', async () => {
      const deny = { output_guardrails: [{ id: 'no-echo', deny: true, 'test.forbid': { word: 'echo' } }] };
      const all = await send(gw, { strategy: { mode: 'fallback' }, ...deny, targets: [leaf(mocks[0]!), leaf(mocks[1]!)] }, chat('hello'));
      expect(all.status).to.equal(446);
      expect(all.headers.get('x-gw-last-used-option-index')).to.equal('config.targets[1]');
      mocks.forEach((m) => m.reset());
      const only429 = await send(gw, { strategy: { mode: 'fallback', on_status_codes: [429] }, ...deny, targets: [leaf(mocks[0]!), leaf(mocks[1]!)] }, chat('hello'));
      expect(only429.status).to.equal(446);
      expect(mocks.map((m) => m.requests.length)).to.deep.equal([1, 0]);
    });
  });
});
