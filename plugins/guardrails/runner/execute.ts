/**
 * Runs checks and hooks. Every check of every hook of a phase starts at once (they run in
 * parallel); the phase waits for the slowest. A check that throws, times out or returns no
 * verdict yields an errored verdict: a pass, unless its params say `failOnError: true`.
 * Synchronous checks cost no timer and no promise.
 *
 * Transformations: checks of one phase all see the same text. When exactly one of them returns a
 * transformed text, that is the result. When several do, they are run again one after another in
 * config order, each on the text the previous one produced, so that every redaction applies.
 */
import type { CheckInput, CheckResult, CheckVerdict, HookResult, RequestContext } from '../../../core/index.js';
import type { CompiledCheck, CompiledHook } from './plan.js';

/** Where a verdict keeps its transformed text: a hidden symbol key, so it never reaches hook_results. */
const TEXT = Symbol('transformedText');

/** A check's verdict as clients see it, plus the text it transformed (if any). */
export interface CheckRun extends CheckVerdict {
  [TEXT]?: string;
}

export interface PhaseResult {
  results: HookResult[];
  /** Some hook failed. */
  failed: boolean;
  /** Ids of failed hooks with `deny`; never mutate (empty lists are shared). */
  readonly denied: readonly string[];
  /** The phase's text after transformations, when a check changed it. */
  transformedText?: string;
}

/** Builds the input a check sees for a given text (the same phase, another text: re-runs of transforms). */
export interface InputFor {
  withText(text: string): CheckInput;
}

/** `start`: when the check starts, if the caller read the clock already (the previous check's end). */
export function runCheck(check: CompiledCheck, input: CheckInput, text: string, ctx: RequestContext, start = performance.now()): CheckRun | Promise<CheckRun> {
  let result: CheckResult | Promise<CheckResult>;
  try {
    result = check.impl.check(input, check.params, ctx);
  } catch (e) {
    return errored(check, messageOf(e), start);
  }
  if (!isThenable(result)) return verdictOf(check, result, text, start);
  const pending = result;
  return new Promise<CheckRun>((resolve) => {
    const timer = setTimeout(() => resolve(errored(check, `timed out after ${check.timeoutMs} ms`, start)), check.timeoutMs);
    pending.then(
      (r) => {
        clearTimeout(timer);
        resolve(verdictOf(check, r, text, start));
      },
      (e: unknown) => {
        clearTimeout(timer);
        resolve(errored(check, messageOf(e), start));
      },
    );
  });
}

/**
 * Runs the hooks' checks in parallel and folds them into hook results. Synchronous when every
 * check is (no promise, no microtask hop): the common case of cheap built-in checks.
 */
export function runHooks(
  hooks: readonly CompiledHook[], input: CheckInput, text: string, ctx: RequestContext, inputFor: InputFor,
): PhaseResult | Promise<PhaseResult> {
  // Arrays sized up front here and in fold: every guarded request makes them, twice.
  let count = 0;
  for (let h = 0; h < hooks.length; h++) count += hooks[h]!.checks.length;
  const runs: (CheckRun | Promise<CheckRun>)[] = new Array(count);
  let pending = false;
  let at = 0;
  // A check that answered at once ended when its time was taken: the next one starts then.
  let start = performance.now();
  for (let h = 0; h < hooks.length; h++) {
    const checks = hooks[h]!.checks;
    for (let c = 0; c < checks.length; c++) {
      const run = runCheck(checks[c]!, input, text, ctx, start);
      if (isThenable(run)) {
        pending = true;
        start = performance.now();
      } else start = lastEnd;
      runs[at++] = run;
    }
  }
  if (pending) return Promise.all(runs).then((settled) => settle(hooks, settled, text, ctx, inputFor));
  return settle(hooks, runs as CheckRun[], text, ctx, inputFor);
}

/** Runs hooks nobody waits for; never rejects. */
export async function runDetached(hooks: readonly CompiledHook[], input: CheckInput, text: string, ctx: RequestContext): Promise<HookResult[]> {
  const runs: Promise<CheckRun>[] = [];
  for (const hook of hooks) for (const check of hook.checks) runs.push(Promise.resolve(runCheck(check, input, text, ctx)));
  const settled = await Promise.all(runs);
  // Nobody reads a transformation made after the fact: report it as not applied.
  for (const run of settled) if (run.transformed) run.transformed = false;
  return fold(hooks, settled, undefined).results;
}

function settle(
  hooks: readonly CompiledHook[], runs: CheckRun[], text: string, ctx: RequestContext, inputFor: InputFor,
): PhaseResult | Promise<PhaseResult> {
  let first = -1;
  let count = 0;
  for (let i = 0; i < runs.length; i++) {
    if (runs[i]![TEXT] === undefined) continue;
    if (first === -1) first = i;
    count++;
  }
  if (count <= 1) return fold(hooks, runs, count === 1 ? runs[first]![TEXT] : undefined);
  return chainTransforms(hooks, runs, first, text, ctx, inputFor).then((transformed) => fold(hooks, runs, transformed));
}

/** Several checks transformed the same text: run them again one after another, each on the previous result. */
async function chainTransforms(
  hooks: readonly CompiledHook[], runs: CheckRun[], first: number, text: string, ctx: RequestContext, inputFor: InputFor,
): Promise<string | undefined> {
  const checks = hooks.flatMap((h) => h.checks);
  let current = text;
  for (let i = first; i < runs.length; i++) {
    if (runs[i]![TEXT] === undefined) continue;
    const again = await runCheck(checks[i]!, inputFor.withText(current), current, ctx);
    runs[i] = again;
    if (again[TEXT] !== undefined) current = again[TEXT];
  }
  return current === text ? undefined : current;
}

/** Shared by every phase nobody denied. */
const NONE_DENIED: readonly string[] = Object.freeze([]);

function fold(hooks: readonly CompiledHook[], runs: readonly CheckRun[], transformedText: string | undefined): PhaseResult {
  const results: HookResult[] = new Array(hooks.length);
  let denied: string[] | undefined;
  let failed = false;
  let at = 0;
  for (let h = 0; h < hooks.length; h++) {
    const hook = hooks[h]!;
    const checks: CheckVerdict[] = new Array(hook.checks.length);
    let verdict = true;
    let transformed = false;
    let time = 0;
    for (let c = 0; c < checks.length; c++) {
      const v = runs[at++]!;
      if (!v.verdict) verdict = false;
      if (v.transformed) transformed = true;
      if (v.execution_time > time) time = v.execution_time;
      checks[c] = v;
    }
    const feedback = verdict ? hook.onSuccess : hook.onFail;
    const result: HookResult = { id: hook.id, type: hook.type, verdict, deny: hook.deny, async: hook.async, checks, execution_time: time };
    if (feedback) result.feedback = feedback;
    if (transformed) result.transformed = true;
    results[h] = result;
    if (!verdict) {
      failed = true;
      if (hook.deny) (denied ??= []).push(hook.id);
    }
  }
  const deniedIds = denied ?? NONE_DENIED;
  return transformedText === undefined ? { results, failed, denied: deniedIds } : { results, failed, denied: deniedIds, transformedText };
}

function verdictOf(check: CompiledCheck, r: CheckResult, text: string, start: number): CheckRun {
  if (r === null || typeof r !== 'object' || typeof r.verdict !== 'boolean') {
    return errored(check, 'the check returned no verdict', start);
  }
  const run: CheckRun = { id: check.id, verdict: r.verdict, data: r.data ?? null, execution_time: elapsed(start) };
  if (typeof r.transformedText === 'string' && r.transformedText !== text) {
    run.transformed = true;
    // Not enumerable: copies of the verdict (logs) never carry the text along.
    Object.defineProperty(run, TEXT, { value: r.transformedText });
  }
  return run;
}

function errored(check: CompiledCheck, message: string, start: number): CheckRun {
  return { id: check.id, verdict: !check.failOnError, data: null, error: { message }, execution_time: elapsed(start) };
}

/** When the last elapsed() read the clock (read back by runHooks, synchronously after a sync check). */
let lastEnd = 0;

function elapsed(start: number): number {
  lastEnd = performance.now();
  return Math.round(lastEnd - start);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
