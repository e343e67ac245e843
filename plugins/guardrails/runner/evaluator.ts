/**
 * GuardrailEvaluator (core/guardrails.ts): a config's hook arrays run on content that is not a chat
 * request (an MCP tool's arguments, its result), with the runner's own plans and executor. The
 * chat path (runner.ts) does not go through here. Results are recorded on the request like a chat
 * request's, under target `config`, so the request logs show them; transformations are reported
 * in the verdicts but not applied (the caller's content is not text slots we could write back).
 */
import {
  Errors, GUARDRAIL_ARRAYS, GuardrailResultsKey,
  type GuardedCall, type GuardedContent, type GuardrailArrayName, type GuardrailEvaluation, type GuardrailEvaluator,
  type HookResult, type Logger, type RequestContext,
} from '../../../core/index.js';
import { ContentInput } from './content-input.js';
import { runDetached, runHooks } from './execute.js';
import { PlanError, type PlanCompiler } from './plan.js';

const SIDES: Readonly<Record<'input' | 'output', readonly GuardrailArrayName[]>> = {
  input: ['before_request_hooks', 'input_guardrails'],
  output: ['output_guardrails', 'after_request_hooks'],
};

const PASSED: GuardrailEvaluation = Object.freeze({ results: Object.freeze([]) as readonly HookResult[], denied: Object.freeze([]) as readonly string[], failed: false });

export class ContentEvaluator implements GuardrailEvaluator {
  readonly #detached = new Set<Promise<void>>();

  constructor(private readonly compiler: PlanCompiler, private readonly logger: Logger) {}

  async evaluate(side: 'input' | 'output', call: GuardedCall, answer: GuardedContent | undefined, ctx: RequestContext, signal: AbortSignal): Promise<GuardrailEvaluation> {
    let results: HookResult[] | undefined;
    let denied: string[] | undefined;
    let failed = false;
    for (const array of SIDES[side]) {
      const list = call.config[array];
      if (!Array.isArray(list) || list.length === 0) continue;
      const plan = this.#plan(array, list);
      const phase = GUARDRAIL_ARRAYS[array];
      const text = answer ? answer.text : call.request.text;
      if (plan.async.length > 0) this.#detach(array, plan.async, new ContentInput(phase, call, ctx.metadata, signal, call.request, answer), text, ctx);
      if (plan.sync.length === 0) continue;
      const input = new ContentInput(phase, call, ctx.metadata, signal, call.request, answer);
      let result;
      try {
        result = await runHooks(plan.sync, input, text, ctx, input);
      } finally {
        input.settle();
      }
      record(ctx, array, result.results, true);
      (results ??= []).push(...result.results);
      if (result.failed) failed = true;
      if (result.denied.length > 0) (denied ??= []).push(...result.denied);
      // A denial ends the side: later arrays would check content that is not going anywhere.
      if (denied) break;
    }
    if (!results) return PASSED;
    return { results, denied: denied ?? [], failed };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#detached]);
  }

  #detach(array: GuardrailArrayName, hooks: Parameters<typeof runDetached>[0], input: ContentInput, text: string, ctx: RequestContext): void {
    const run = runDetached(hooks, input, text, ctx).then((results) => {
      input.settle();
      record(ctx, array, results, false);
    }).catch((e: unknown) => {
      this.logger.error({ err: e, traceId: ctx.traceId || undefined }, 'detached guardrail hooks failed');
    });
    this.#detached.add(run);
    void run.finally(() => this.#detached.delete(run));
  }

  #plan(name: GuardrailArrayName, list: readonly unknown[]) {
    try {
      return this.compiler.plan(name, list);
    } catch (e) {
      if (e instanceof PlanError) throw Errors.invalidConfig(e.issue.path, e.issue.rule);
      throw e;
    }
  }
}

function record(ctx: RequestContext, array: GuardrailArrayName, results: readonly HookResult[], inResponse: boolean): void {
  let list = ctx.values.get(GuardrailResultsKey);
  if (!list) ctx.values.set(GuardrailResultsKey, (list = []));
  for (const result of results) list.push({ target: 'config', array, result, inResponse });
}
