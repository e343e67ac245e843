/**
 * The guardrail runner: one target's attempt through its hook arrays.
 *
 *   beforeRequest  before_request_hooks  ┐ request phases: may deny (446) or rewrite attempt.body
 *   guardInput     input_guardrails      ┘
 *   guardOutput    output_guardrails     ┐ answer phases (2xx answers only): may deny (446) or rewrite
 *   afterRequest   after_request_hooks   ┘ the answer; a stream is held only when a hook there denies
 *   afterRequest (late)                  the answer: status 246 on failure, `hook_results` in JSON
 *
 * Each phase's sync hooks run in parallel (execute.ts); `async: true` hooks are detached: their
 * results go to the log and to ctx.values, never to the answer. Per-attempt state lives on the
 * attempt under a private symbol (no WeakMap entry for the collector to trace), created only when a
 * hook ran.
 */
import {
  Errors, GuardrailResultsKey,
  type Attempt, type GuardrailArrayName, type HookResult, type Logger, type Outcome,
} from '../../../core/index.js';
import { deniedOutcome, errorOutcome, finalOutcome, hookResultsOf, isAnswer, withHookResults } from './answers.js';
import { runDetached, runHooks, type PhaseResult } from './execute.js';
import { PhaseInput } from './input.js';
import { PlanError, type CompiledHook, type PhasePlan, type PlanCompiler } from './plan.js';
import { holdStream, observe, replay, type HeldStream } from './stream.js';
import { answerText, requestText, withText, type SlottedText } from './text.js';

type Obj = Record<string, unknown>;

interface AnswerState {
  json: Obj;
  slotted: SlottedText;
  readonly status: number;
  readonly held?: HeldStream;
  transformed: boolean;
}

interface AttemptState {
  /** Sync results of before_request_hooks and input_guardrails. */
  before: HookResult[];
  /** Sync results of output_guardrails and after_request_hooks. */
  after: HookResult[];
  failed: boolean;
  /** A denial answered this attempt. */
  done: boolean;
  answer?: AnswerState;
}

/** The runner's slot on an attempt. */
const STATE = Symbol('guardrails.attempt-state');

interface WithState {
  [STATE]?: AttemptState;
}

export interface RunnerOptions {
  maxHeldStreamBytes: number;
}

export class GuardrailRunner {
  readonly #detached = new Set<Promise<void>>();

  constructor(
    private readonly compiler: PlanCompiler,
    private readonly logger: Logger,
    private readonly options: RunnerOptions,
  ) {}

  /** before_request_hooks / input_guardrails: undefined to go on, or the 446 outcome. */
  async request(attempt: Attempt, name: 'before_request_hooks' | 'input_guardrails', list: readonly unknown[]): Promise<Outcome | undefined> {
    const plan = this.#plan(name, list);
    if (plan.sync.length === 0 && plan.async.length === 0) return undefined;
    const slotted = requestText(attempt.body);
    if (plan.async.length > 0) this.#detach(plan.array, plan.async, attempt, new PhaseInput(plan.phase, attempt, slotted.text), slotted.text);
    if (plan.sync.length === 0) return undefined;
    const input = new PhaseInput(plan.phase, attempt, slotted.text);
    const run = this.#run(plan.sync, input, slotted.text, attempt);
    const result = run instanceof Promise ? await run : run;
    const state = this.#state(attempt);
    this.#collect(state, 'before', attempt, name, result);
    if (result.denied.length > 0) {
      state.done = true;
      return deniedOutcome(result.denied, hookResultsOf(state.before, []), 'request');
    }
    if (result.transformedText !== undefined) attempt.body = withText(attempt.body, slotted, result.transformedText);
    return undefined;
  }

  /** guardOutput: output_guardrails (and, for streams, the decision to hold for after_request_hooks too). */
  async output(outcome: Outcome, attempt: Attempt): Promise<Outcome> {
    if (!isAnswer(outcome)) return outcome;
    const target = attempt.target;
    const out = target.output_guardrails ? this.#plan('output_guardrails', target.output_guardrails) : undefined;
    const after = target.after_request_hooks ? this.#plan('after_request_hooks', target.after_request_hooks) : undefined;
    const response = outcome.response!;
    if (response.stream && !out?.blocking && !after?.blocking) return this.#observe(outcome, attempt, [out, after]);
    const state = this.#state(attempt);
    if (response.stream) {
      const hold = await holdStream(response.stream, this.options.maxHeldStreamBytes);
      if (hold.kind === 'failed') return errorOutcome(Errors.badGateway(hold.message, outcome.provider), outcome);
      if (hold.kind === 'too-large') {
        state.done = true;
        const blocking = [...(out?.sync ?? []), ...(after?.sync ?? [])].filter((h) => h.deny);
        const results = blocking.map((h) => notRun(h, `not run: the streamed answer exceeds maxHeldStreamBytes (${this.options.maxHeldStreamBytes})`));
        return deniedOutcome(blocking.map((h) => h.id), hookResultsOf(state.before, results), 'answer', outcome);
      }
      const json = hold.stream.answer;
      state.answer = { json, slotted: answerText(json), status: outcome.status, held: hold.stream, transformed: false };
    } else {
      const value = response.json!.tryValue();
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return outcome;
      state.answer = { json: value as Obj, slotted: answerText(value), status: outcome.status, transformed: false };
    }
    if (!out) return outcome;
    const answered = this.#answerPhase(out, outcome, attempt, state);
    return answered instanceof Promise ? await answered : answered;
  }

  /** afterRequest: after_request_hooks on the answer output guardrails left (held, JSON). */
  async after(outcome: Outcome, attempt: Attempt): Promise<Outcome> {
    const list = attempt.target.after_request_hooks;
    const state = (attempt as WithState)[STATE];
    if (!list || !state?.answer || state.done || !isAnswer(outcome)) return outcome;
    return this.#answerPhase(this.#plan('after_request_hooks', list), outcome, attempt, state);
  }

  /** afterRequest, late: the answer the client gets (246, hook_results, a held stream released). */
  finish(outcome: Outcome, attempt: Attempt): Outcome {
    const state = (attempt as WithState)[STATE];
    if (!state || state.done || !isAnswer(outcome)) return outcome;
    const response = outcome.response!;
    const answer = state.answer;
    if (answer?.held) {
      const texts = answer.transformed ? choiceTexts(answer.json) : undefined;
      return finalOutcome(outcome, { ...response, stream: replay(answer.held, texts) }, state.failed);
    }
    if (response.stream) return state.failed ? finalOutcome(outcome, response, true) : outcome;
    if (state.before.length === 0 && state.after.length === 0) return outcome;
    const json = withHookResults(response.json!, hookResultsOf(state.before, state.after), answer?.transformed ? answer.json : undefined);
    return finalOutcome(outcome, response, state.failed, json);
  }

  /** Waits for detached hooks (shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#detached]);
  }

  /** No promise when every check answered synchronously (an async function returning a promise costs extra turns). */
  #answerPhase(plan: PhasePlan, outcome: Outcome, attempt: Attempt, state: AttemptState): Outcome | Promise<Outcome> {
    const answer = state.answer!;
    const seen = { json: answer.json, text: answer.slotted.text, status: answer.status };
    if (plan.async.length > 0) this.#detach(plan.array, plan.async, attempt, new PhaseInput(plan.phase, attempt, undefined, seen), seen.text);
    if (plan.sync.length === 0) return outcome;
    const run = this.#run(plan.sync, new PhaseInput(plan.phase, attempt, undefined, seen), seen.text, attempt);
    return run instanceof Promise
      ? run.then((result) => this.#answered(result, outcome, attempt, plan, state))
      : this.#answered(run, outcome, attempt, plan, state);
  }

  #answered(result: PhaseResult, outcome: Outcome, attempt: Attempt, plan: PhasePlan, state: AttemptState): Outcome {
    const answer = state.answer!;
    this.#collect(state, 'after', attempt, plan.array, result);
    if (result.denied.length > 0) {
      state.done = true;
      return deniedOutcome(result.denied, hookResultsOf(state.before, state.after), 'answer', outcome);
    }
    if (result.transformedText !== undefined) {
      answer.json = withText(answer.json, answer.slotted, result.transformedText);
      answer.slotted = answerText(answer.json);
      answer.transformed = true;
    }
    return outcome;
  }

  /** A stream nobody must block: passed through, its verdicts computed at its end for the logs. */
  #observe(outcome: Outcome, attempt: Attempt, plans: (PhasePlan | undefined)[]): Outcome {
    const response = outcome.response!;
    const stream = observe(response.stream!, this.options.maxHeldStreamBytes, (json) => {
      if (!json) return;
      const seen = { json, text: answerText(json).text, status: outcome.status };
      for (const plan of plans) {
        if (!plan) continue;
        const hooks = plan.async.length === 0 ? plan.sync : [...plan.sync, ...plan.async];
        if (hooks.length > 0) this.#detach(plan.array, hooks, attempt, new PhaseInput(plan.phase, attempt, undefined, seen), seen.text);
      }
    });
    return { ...outcome, response: { ...response, stream } };
  }

  /** One phase's sync hooks; no promise (and no closure) when every check answered synchronously. */
  #run(hooks: readonly CompiledHook[], input: PhaseInput, text: string, attempt: Attempt): PhaseResult | Promise<PhaseResult> {
    let result: PhaseResult | Promise<PhaseResult>;
    try {
      result = runHooks(hooks, input, text, attempt.ctx, input);
    } catch (e) {
      input.settle();
      throw e;
    }
    if (result instanceof Promise) return result.finally(() => input.settle());
    input.settle();
    return result;
  }

  #detach(array: GuardrailArrayName, hooks: readonly CompiledHook[], attempt: Attempt, input: PhaseInput, text: string): void {
    const ctx = attempt.ctx;
    const run = runDetached(hooks, input, text, ctx).then((results) => {
      input.settle();
      this.#record(attempt, array, results, false);
      this.logger.info({ traceId: ctx.traceId || undefined, target: attempt.target.$path, array, hooks: results.map(summary) }, 'guardrail results after the answer');
    }).catch((e: unknown) => {
      this.logger.error({ err: e, traceId: ctx.traceId || undefined }, 'detached guardrail hooks failed');
    });
    this.#detached.add(run);
    void run.finally(() => this.#detached.delete(run));
  }

  #collect(state: AttemptState, side: 'before' | 'after', attempt: Attempt, array: GuardrailArrayName, result: PhaseResult): void {
    // The first phase of a side hands over its array (nothing else keeps it); later ones append.
    const into = state[side];
    if (into.length === 0) state[side] = result.results;
    else for (const r of result.results) into.push(r);
    if (result.failed) state.failed = true;
    this.#record(attempt, array, result.results, true);
  }

  #record(attempt: Attempt, array: GuardrailArrayName, results: readonly HookResult[], inResponse: boolean): void {
    const values = attempt.ctx.values;
    let list = values.get(GuardrailResultsKey);
    if (!list) values.set(GuardrailResultsKey, (list = []));
    const target = attempt.target.$path;
    for (const result of results) list.push({ target, array, result, inResponse });
  }

  #state(attempt: Attempt): AttemptState {
    return ((attempt as WithState)[STATE] ??= { before: [], after: [], failed: false, done: false });
  }

  #plan(name: GuardrailArrayName, list: readonly unknown[]): PhasePlan {
    try {
      return this.compiler.plan(name, list);
    } catch (e) {
      if (e instanceof PlanError) throw Errors.invalidConfig(e.issue.path, e.issue.rule);
      throw e;
    }
  }
}

/** A hook result for the log: verdicts and errors, not `data` (which may quote the user's text). */
function summary(r: HookResult) {
  return {
    id: r.id, verdict: r.verdict, execution_time: r.execution_time, feedback: r.feedback,
    checks: r.checks.map((c) => (c.error ? { id: c.id, verdict: c.verdict, error: c.error.message } : { id: c.id, verdict: c.verdict })),
  };
}

/** A blocking hook that could not run, reported as failed. */
function notRun(hook: CompiledHook, message: string): HookResult {
  return {
    id: hook.id, type: hook.type, verdict: false, deny: hook.deny, async: false, execution_time: 0,
    checks: hook.checks.map((c) => ({ id: c.id, verdict: false, data: null, error: { message }, execution_time: 0 })),
  };
}

/** Each choice's text of a unified answer, by choice index (for rewriting a held stream). */
function choiceTexts(json: Obj): Map<number, string> {
  const texts = new Map<number, string>();
  const choices = json['choices'];
  if (!Array.isArray(choices)) return texts;
  for (const c of choices as Obj[]) {
    const content = (c['message'] as Obj | undefined)?.['content'];
    const text = typeof content === 'string' ? content : c['text'];
    if (typeof text === 'string') texts.set(typeof c['index'] === 'number' ? c['index'] : 0, text);
  }
  return texts;
}
