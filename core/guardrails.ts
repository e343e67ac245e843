/**
 * The guardrail contract. A check is `<vendor>.<name>` with a TypeBox params schema (validated
 * when a config is loaded, never per request) and a `check` function that returns a verdict.
 * A check never throws for a policy failure (verdict false); a thrown error or a time-out becomes
 * an errored verdict in the runner. The kernel itself only knows "collect verdicts, deny if a
 * blocking hook failed"; the runner is a plugin (plugins/guardrails/runner).
 *
 * This file is also the public API for an organisation's own checks:
 *
 *   export const noCompetitors = defineCheck({ id: 'acme.noCompetitors', params: Type.Object({...}), check(input, params) {...} });
 *   export default defineGuardrailPlugin({ id: 'acme.guards', checks: [noCompetitors] });
 */
import { GatewayError } from './errors.js';
import { definePlugin, type PluginClass } from './plugin.js';
import { requestKey } from './request-values.js';
import { serviceKey } from './service-key.js';
import type { Issue, TSchema, Static } from './schema.js';
import type { RequestContext } from './types.js';
import type { ConfigNode } from './config/types.js';

/** Where in the lifecycle a check runs. */
export type GuardrailPhase = 'beforeRequest' | 'input' | 'output' | 'afterRequest';

/** The config arrays (spec §2.1) and the phase each runs in, in lifecycle order. */
export const GUARDRAIL_ARRAYS = {
  before_request_hooks: 'beforeRequest',
  input_guardrails: 'input',
  output_guardrails: 'output',
  after_request_hooks: 'afterRequest',
} as const satisfies Record<string, GuardrailPhase>;

export type GuardrailArrayName = keyof typeof GUARDRAIL_ARRAYS;

/** What a check sees. Text is the concatenated message/prompt text (request) or answer text (response). */
export interface CheckInput {
  readonly phase: GuardrailPhase;
  /** The request body as it will be (or was) sent, and its text (message texts joined with "\n"). */
  readonly request: { readonly json: Readonly<Record<string, unknown>>; readonly text: string };
  /** The unified answer and its text (output / afterRequest phases only; choices joined with "\n"). */
  readonly response?: { readonly json: unknown; readonly text: string; readonly status: number };
  readonly metadata: Readonly<Record<string, string>>;
  readonly endpoint: string;
  readonly provider?: string;
  readonly model?: string;
  /** Aborted when the client leaves or the runner stops waiting for this phase (time-out). */
  readonly signal: AbortSignal;
}

export interface CheckResult {
  /** true = passed. */
  verdict: boolean;
  /** Anything worth reporting (matches, scores, reasons). */
  data?: unknown;
  /**
   * Replacement text when the check transforms content (redaction): request text for input
   * phases, answer text for output phases. The runner writes it back into the body, line by line
   * onto the messages (or choices) the text was joined from, so keep the text's line breaks.
   */
  transformedText?: string;
}

export interface GuardrailCheck<P = Record<string, unknown>> {
  /** `<vendor>.<checkName>`, e.g. `default.regexMatch`. */
  readonly id: string;
  /**
   * Params schema; defaults applied and validated when a config is loaded. The runner's own
   * params `timeout` (ms) and `failOnError` (boolean) are accepted for every check and reach it
   * only when this schema declares them.
   */
  readonly params?: TSchema;
  /** Phases the check supports; default all. */
  readonly phases?: readonly GuardrailPhase[];
  /**
   * Rules the schema cannot express (a regular expression that must compile ...), run once per
   * config after the schema passed; paths are relative to the params object.
   */
  validate?(params: P): Issue[];
  check(input: CheckInput, params: P, ctx: RequestContext): CheckResult | Promise<CheckResult>;
}

const CHECK_ID = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+$/;

/** Typed helper for writing a check: params inferred from the schema. */
export function defineCheck<S extends TSchema>(check: {
  id: string;
  params: S;
  phases?: readonly GuardrailPhase[];
  validate?(params: Static<S>): Issue[];
  check(input: CheckInput, params: Static<S>, ctx: RequestContext): CheckResult | Promise<CheckResult>;
}): GuardrailCheck<Static<S>> {
  assertCheckId(check.id);
  return check;
}

function assertCheckId(id: unknown): void {
  if (typeof id !== 'string' || !CHECK_ID.test(id)) {
    throw new Error(`guardrail check id ${JSON.stringify(id)} must look like <vendor>.<checkName> (e.g. acme.noCompetitors)`);
  }
}

export interface GuardrailPluginDefinition {
  /** Plugin id, `<kind>.<name>` (e.g. `acme.guards`). */
  id: string;
  description?: string;
  dependsOn?: readonly string[];
  checks: readonly GuardrailCheck<any>[];
}

/** A plugin class that registers the given checks: what an organisation's guardrail module default-exports. */
export function defineGuardrailPlugin(def: GuardrailPluginDefinition): PluginClass {
  for (const check of def.checks) assertCheckId(check?.id);
  const checks = [...def.checks];
  return definePlugin({
    id: def.id,
    description: def.description ?? `guardrail checks: ${checks.map((c) => c.id).join(', ')}`,
    dependsOn: def.dependsOn,
    apply(api) {
      for (const check of checks) api.registries.checks.register(check.id, check, api.id);
    },
  });
}

/** One check's outcome inside a hook result (the shape clients see in `hook_results`). */
export interface CheckVerdict {
  id: string;
  verdict: boolean;
  data: unknown;
  /** Set when the check threw or timed out (its verdict is then `!failOnError`). */
  error?: { message: string };
  /** Milliseconds. */
  execution_time: number;
  /** Whether its transformed text was applied. */
  transformed?: boolean;
}

/** One hook's (or guardrail's) outcome. */
export interface HookResult {
  id: string;
  type: string;
  verdict: boolean;
  deny: boolean;
  async: boolean;
  checks: CheckVerdict[];
  /** The configured `on_success` / `on_fail` feedback, by verdict. */
  feedback?: { value?: number; weight?: number; metadata?: Record<string, unknown> };
  /** Milliseconds (checks run in parallel: the slowest check). */
  execution_time: number;
  /** Whether a check of this hook changed the request or answer text. */
  transformed?: boolean;
}

/**
 * `hook_results` in answers, as the nearest existing gateway shapes it: input guardrails are
 * listed with the before-request hooks, output guardrails with the after-request hooks.
 */
export interface HookResults {
  before_request_hooks: HookResult[];
  after_request_hooks: HookResult[];
}

/** One hook result of one target, as kept for logs in `ctx.values.get(GuardrailResultsKey)` (an array). */
export interface GuardrailRecord {
  /** `$path` of the target, e.g. `config.targets[1]`. */
  target: string;
  array: GuardrailArrayName;
  result: HookResult;
  /** false when the result came after the answer was sent (async hooks, verdicts of a passed-through stream). */
  inResponse: boolean;
}

/** The request's guardrail records (written by the runner, read by logs and tracing). */
export const GuardrailResultsKey = requestKey<GuardrailRecord[]>('guardrails.results');

/**
 * Stored guardrails (the control plane's), resolved by id when a config is validated. A store
 * is provided as the service `GuardrailStoreService`. Validation is synchronous, so a store
 * answers from memory (and refreshes in the background). A stored guardrail has the shape of an
 * inline guardrail object (checks keyed by id) or of a hook (`{ id, checks: [{ id, parameters }] }`).
 * `get` must return the same object while a guardrail is unchanged and another one once it changed:
 * the runner caches what it compiled per config and recompiles when the object it gets differs.
 */
export interface GuardrailStore {
  get(id: string): Readonly<Record<string, unknown>> | undefined;
}

export const GuardrailStoreService = serviceKey<GuardrailStore>('guardrail-store');

/** 446: a hook with `deny` failed. The body is the error envelope plus `hook_results`. */
export function guardrailDenied(hookIds: readonly string[], hookResults: HookResults, stage: 'request' | 'answer'): GatewayError {
  const names = hookIds.map((id) => JSON.stringify(id)).join(', ');
  return new GatewayError({
    status: 446,
    message: `the guardrail checks defined in the config failed and deny the ${stage} (${names}); see hook_results`,
    type: 'hooks_failed',
    code: 'guardrail_denied',
    extra: { hook_results: hookResults },
  });
}

/** Content a guardrail evaluation checks outside the chat lifecycle (an MCP tool's arguments or result). */
export interface GuardedContent {
  /** What checks read as `request.json` (input side) or `response.json` (output side). */
  readonly json: Readonly<Record<string, unknown>>;
  /** What checks read as the text. */
  readonly text: string;
}

/** Who and what the evaluated content belongs to, as checks see it in CheckInput. */
export interface GuardedCall {
  /** The route config whose hook arrays apply (its root node: these calls have no target tree). */
  readonly config: ConfigNode;
  /** CheckInput.endpoint, e.g. `mcp`. */
  readonly endpoint: string;
  /** CheckInput.provider (an MCP server's slug). */
  readonly provider?: string;
  /** CheckInput.model (a tool's name). */
  readonly model?: string;
  /** The request content, which the output side shows as `request` too. */
  readonly request: GuardedContent;
}

export interface GuardrailEvaluation {
  /** Results of the hooks that ran and were waited for (async hooks are recorded later, for the logs). */
  readonly results: readonly HookResult[];
  /** Ids of failed hooks with `deny`: the content must not pass. */
  readonly denied: readonly string[];
  /** Some hook failed. */
  readonly failed: boolean;
}

/**
 * Runs a config's hooks on content of the caller's choosing: `input` runs before_request_hooks and
 * input_guardrails on `call.request`; `output` runs output_guardrails and after_request_hooks on
 * `answer`. Results are recorded in `GuardrailResultsKey` (target `config`) like a chat request's,
 * so the request logs show them. Transformations are reported, not applied. Provided by the
 * guardrails runner as `GuardrailEvaluatorService`.
 */
export interface GuardrailEvaluator {
  evaluate(side: 'input' | 'output', call: GuardedCall, answer: GuardedContent | undefined, ctx: RequestContext, signal: AbortSignal): Promise<GuardrailEvaluation>;
}

export const GuardrailEvaluatorService = serviceKey<GuardrailEvaluator>('guardrail-evaluator');
