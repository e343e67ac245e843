/**
 * guardrails.runner: runs `before_request_hooks`, `input_guardrails`, `output_guardrails` and
 * `after_request_hooks` (spec §2.1) for every target that has them (inherited like other
 * settings), with the checks other plugins register in `registries.checks`.
 * Configs are validated when they are loaded (unknown check, bad params, unsupported phase,
 * unknown stored guardrail → 400); targets without hooks cost one property check per lifecycle point.
 * See runner.ts for the lifecycle and docs/guardrails.md for the behaviour clients see.
 */
import {
  GuardrailEvaluatorService, GuardrailStoreService, Stage, Type,
  type GuardrailStore, type Outcome, type Plugin, type PluginApi, type Static, type Target,
} from '../../../core/index.js';
import { PlanCompiler } from './plan.js';
import { GuardrailRunner } from './runner.js';
import { GUARDRAILS_CONFIG } from './config-keys.js';
import { ContentEvaluator } from './evaluator.js';

const Options = Type.Object({
  /** Time a check may take unless its params say otherwise (`timeout`); then it counts as errored. */
  checkTimeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 10_000 }),
  /** The largest `timeout` a check's params may ask for. */
  maxCheckTimeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 60_000 }),
  /** Most bytes of a stream held for blocking output hooks; a longer answer is denied unchecked. */
  maxHeldStreamBytes: Type.Integer({ minimum: 1024, default: 8 * 1024 * 1024 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const GO_ON: Promise<undefined> = Promise.resolve(undefined);

function hasHooks(t: Target): boolean {
  return t.before_request_hooks !== undefined || t.input_guardrails !== undefined
    || t.output_guardrails !== undefined || t.after_request_hooks !== undefined;
}

export default class GuardrailsRunnerPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'guardrails.runner',
    description: 'Runs hooks and guardrails (before_request_hooks, input/output_guardrails, after_request_hooks)',
    config: GUARDRAILS_CONFIG,
    options: Options,
    provides: [GuardrailEvaluatorService],
  };

  #runner?: GuardrailRunner;
  #evaluator?: ContentEvaluator;

  apply(api: PluginApi<Options>): void {
    const { checkTimeoutMs, maxCheckTimeoutMs, maxHeldStreamBytes } = api.options;
    if (checkTimeoutMs > maxCheckTimeoutMs) throw new Error(`checkTimeoutMs (${checkTimeoutMs}) exceeds maxCheckTimeoutMs (${maxCheckTimeoutMs})`);
    // The store (control plane) may be provided by a plugin applied after this one: looked up on use.
    let store: GuardrailStore | undefined;
    const storeOf = () => (store ??= api.services.find(GuardrailStoreService));
    const compiler = new PlanCompiler(api.registries.checks, storeOf, { defaultTimeoutMs: checkTimeoutMs, maxTimeoutMs: maxCheckTimeoutMs });
    const runner = new GuardrailRunner(compiler, api.logger, { maxHeldStreamBytes });
    this.#runner = runner;
    // Hooks on content that is not a chat request (MCP tool arguments and results).
    this.#evaluator = new ContentEvaluator(compiler, api.logger);
    api.services.provide(GuardrailEvaluatorService, this.#evaluator);

    api.hooks.validateConfig.tap(api.id, (node, path, issues) => compiler.validateNode(node, path, issues));

    api.hooks.beforeRequest.tapPromise({ name: api.id, stage: Stage.HOOKS }, (attempt) => {
      const list = attempt.target.before_request_hooks;
      return list === undefined ? GO_ON : runner.request(attempt, 'before_request_hooks', list);
    });
    api.hooks.guardInput.tapPromise({ name: api.id, stage: Stage.GUARDRAILS }, (attempt) => {
      const list = attempt.target.input_guardrails;
      return list === undefined ? GO_ON : runner.request(attempt, 'input_guardrails', list);
    });
    api.hooks.guardOutput.tapPromise({ name: api.id, stage: Stage.GUARDRAILS }, (outcome, attempt): Promise<Outcome> => {
      const t = attempt.target;
      return t.output_guardrails === undefined && t.after_request_hooks === undefined ? Promise.resolve(outcome) : runner.output(outcome, attempt);
    });
    api.hooks.afterRequest.tapPromise({ name: api.id, stage: Stage.HOOKS }, (outcome, attempt): Promise<Outcome> => {
      return attempt.target.after_request_hooks === undefined ? Promise.resolve(outcome) : runner.after(outcome, attempt);
    });
    api.hooks.afterRequest.tap({ name: api.id, stage: Stage.LATE }, (outcome, attempt) => {
      return hasHooks(attempt.target) ? runner.finish(outcome, attempt) : outcome;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.#runner?.close(), this.#evaluator?.close()]);
  }
}
