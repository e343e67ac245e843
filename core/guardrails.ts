/**
 * The guardrail contract. A check is `<vendor>.<name>` with a TypeBox params schema (validated
 * when a config is loaded, never per request) and a `check` function that returns a verdict.
 * A check never throws for a policy failure (verdict false); a thrown error or a time-out becomes
 * an errored verdict in the runner. The kernel itself only knows "collect verdicts, deny if a
 * blocking hook failed"; the runner is a plugin.
 */
import type { TSchema, Static } from './schema.js';
import type { RequestContext } from './types.js';

/** Where in the lifecycle a check runs. */
export type GuardrailPhase = 'beforeRequest' | 'input' | 'output' | 'afterRequest';

/** What a check sees. Text is the concatenated message/prompt text (request) or answer text (response). */
export interface CheckInput {
  readonly phase: GuardrailPhase;
  /** The request body as it will be (or was) sent, and its text. */
  readonly request: { readonly json: Readonly<Record<string, unknown>>; readonly text: string };
  /** The unified answer and its text (output / afterRequest phases only). */
  readonly response?: { readonly json: unknown; readonly text: string; readonly status: number };
  readonly metadata: Readonly<Record<string, string>>;
  readonly endpoint: string;
  readonly provider?: string;
  readonly model?: string;
  readonly signal: AbortSignal;
}

export interface CheckResult {
  /** true = passed. */
  verdict: boolean;
  /** Anything worth reporting (matches, scores, reasons). */
  data?: unknown;
  /**
   * Replacement text when the check transforms content (redaction): request text for input
   * phases, answer text for output phases. The runner writes it back into the body.
   */
  transformedText?: string;
}

export interface GuardrailCheck<P = Record<string, unknown>> {
  /** `<vendor>.<checkName>`, e.g. `default.regexMatch`. */
  readonly id: string;
  /** Params schema; defaults applied and validated when a config is loaded. */
  readonly params?: TSchema;
  /** Phases the check supports; default all. */
  readonly phases?: readonly GuardrailPhase[];
  check(input: CheckInput, params: P, ctx: RequestContext): CheckResult | Promise<CheckResult>;
}

/** Typed helper for writing a check: params inferred from the schema. */
export function defineCheck<S extends TSchema>(check: {
  id: string;
  params: S;
  phases?: readonly GuardrailPhase[];
  check(input: CheckInput, params: Static<S>, ctx: RequestContext): CheckResult | Promise<CheckResult>;
}): GuardrailCheck<Static<S>> {
  return check;
}

/** One check's outcome inside a hook result (the shape clients see in `hook_results`). */
export interface CheckVerdict {
  id: string;
  verdict: boolean;
  data: unknown;
  error?: { message: string };
  execution_time: number;
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
  feedback?: { value?: number; weight?: number; metadata?: Record<string, unknown> };
  execution_time: number;
}
