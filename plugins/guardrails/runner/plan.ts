/**
 * Config arrays → compiled plans. Runs when a config is validated (validateConfig hook): every
 * check id must be registered, its params must pass the check's schema (defaults applied) and its
 * own rules, and the check must support the phase. A plan is cached per config array object, so
 * a config that is resolved again (the config-headers plugin caches parsed configs) is validated
 * once and requests never re-validate params.
 */
import {
  compile, deepFreeze, GUARDRAIL_ARRAYS, joinPath, Type, Value,
  type ConfigNode, type GuardrailArrayName, type GuardrailCheck, type GuardrailPhase, type GuardrailStore,
  type HookFeedback, type Issue, type Registry, type TSchema, type Validator,
} from '../../../core/index.js';

export interface CompiledCheck {
  readonly id: string;
  readonly impl: GuardrailCheck<any>;
  readonly params: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  readonly failOnError: boolean;
}

export interface CompiledHook {
  readonly id: string;
  readonly type: string;
  readonly async: boolean;
  readonly deny: boolean;
  readonly checks: readonly CompiledCheck[];
  readonly onSuccess?: HookFeedback;
  readonly onFail?: HookFeedback;
}

export interface PhasePlan {
  readonly array: GuardrailArrayName;
  readonly phase: GuardrailPhase;
  /** Hooks whose verdicts the answer waits for. */
  readonly sync: readonly CompiledHook[];
  /** `async: true` hooks: fired and forgotten, results logged. */
  readonly async: readonly CompiledHook[];
  /** Whether a failing sync hook denies (a stream must then be held before release). */
  readonly blocking: boolean;
  /** Stored guardrails it was compiled from (id and the store's object), to notice changes. */
  readonly stored: readonly StoredRef[];
}

type StoredRef = readonly [id: string, value: object];
const NONE: readonly StoredRef[] = Object.freeze([]);

export interface PlanLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
}

/** Keys of an inline guardrail object that are not checks. */
const GUARDRAIL_KEYS = new Set(['id', 'type', 'deny', 'async', 'on_fail', 'on_success']);
/** Params every check accepts, read by the runner. */
const RUNNER_PARAMS = ['timeout', 'failOnError'] as const;
const ARRAY_NAMES = Object.keys(GUARDRAIL_ARRAYS) as GuardrailArrayName[];

type Obj = Record<string, unknown>;

export class PlanCompiler {
  readonly #plans = new WeakMap<readonly unknown[], PhasePlan>();
  readonly #validators = new WeakMap<GuardrailCheck<any>, Validator<unknown>>();
  readonly #runnerParams: Validator<unknown>;

  constructor(
    private readonly checks: Registry<GuardrailCheck<any>>,
    private readonly store: () => GuardrailStore | undefined,
    private readonly limits: PlanLimits,
  ) {
    this.#runnerParams = compile(Type.Object({
      timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: limits.maxTimeoutMs })),
      failOnError: Type.Optional(Type.Boolean()),
    }));
  }

  /** The validateConfig tap: compiles (once) each guardrail array the node sets. */
  validateNode(node: ConfigNode, path: string, issues: Issue[]): void {
    for (const name of ARRAY_NAMES) {
      const list = node[name];
      if (list === undefined) continue;
      const known = this.#plans.get(list as unknown[]);
      if (known && (known.stored.length === 0 || this.#current(known.stored))) continue;
      const plan = this.#compile(name, list as unknown[], joinPath(path, name), issues);
      if (plan) this.#plans.set(list as unknown[], plan);
    }
  }

  /**
   * The plan of an array a target carries. Every array of a validated config has one; an array
   * that slipped past validation, or whose stored guardrails changed, is compiled here, and a
   * broken one throws its first issue.
   */
  plan(name: GuardrailArrayName, list: readonly unknown[]): PhasePlan {
    const known = this.#plans.get(list);
    // A validated config is not validated again: a stored guardrail it names may have changed since.
    if (known && (known.stored.length === 0 || this.#current(known.stored))) return known;
    const issues: Issue[] = [];
    const plan = this.#compile(name, list, name, issues);
    if (!plan) throw new PlanError(issues[0]!);
    this.#plans.set(list, plan);
    return plan;
  }

  /** Whether the store still hands out the very objects a plan was compiled from. */
  #current(stored: readonly StoredRef[]): boolean {
    const store = this.store();
    for (const [id, value] of stored) if (store?.get(id) !== value) return false;
    return true;
  }

  #compile(name: GuardrailArrayName, list: readonly unknown[], path: string, issues: Issue[]): PhasePlan | undefined {
    const phase = GUARDRAIL_ARRAYS[name];
    const before = issues.length;
    const sync: CompiledHook[] = [];
    const async: CompiledHook[] = [];
    const stored: StoredRef[] = [];
    for (let i = 0; i < list.length; i++) {
      const hook = this.#item(name, phase, list[i], joinPath(path, i), i, issues, stored);
      if (hook) (hook.async ? async : sync).push(hook);
    }
    if (issues.length > before) return undefined;
    return { array: name, phase, sync, async, blocking: sync.some((h) => h.deny && h.checks.length > 0), stored: stored.length ? stored : NONE };
  }

  #item(
    name: GuardrailArrayName, phase: GuardrailPhase, item: unknown, path: string, index: number, issues: Issue[], refs: StoredRef[],
  ): CompiledHook | undefined {
    if (typeof item === 'string') {
      const stored = this.store()?.get(item);
      if (!stored) {
        issues.push({ path, rule: `unknown guardrail "${item}"` });
        return undefined;
      }
      refs.push([item, stored]);
      // A stored guardrail's own problems are reported at the reference, naming it.
      const inner: Issue[] = [];
      const hook = this.#object(phase, stored, '', item, inner);
      for (const issue of inner) issues.push({ path, rule: `stored guardrail "${item}": ${issue.path ? issue.path + ': ' : ''}${issue.rule}` });
      return hook;
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      issues.push({ path, rule: 'must be a guardrail id (string) or a guardrail object' });
      return undefined;
    }
    return this.#object(phase, item as Obj, path, `${name}.${index}`, issues);
  }

  /** A hook object (`checks: [{id, parameters}]`) or an inline guardrail (checks keyed by id). */
  #object(phase: GuardrailPhase, item: Obj, path: string, defaultId: string, issues: Issue[]): CompiledHook | undefined {
    const before = issues.length;
    const checks: CompiledCheck[] = [];
    if (Array.isArray(item['checks'])) {
      const list = item['checks'] as unknown[];
      for (let j = 0; j < list.length; j++) {
        const c = list[j] as Obj | undefined;
        const checkPath = joinPath(joinPath(path, 'checks'), j);
        const id = c?.['id'];
        if (typeof id !== 'string') {
          issues.push({ path: joinPath(checkPath, 'id'), rule: 'must be a check id' });
          continue;
        }
        const compiled = this.#check(phase, id, c?.['parameters'] ?? {}, joinPath(checkPath, 'id'), joinPath(checkPath, 'parameters'), issues);
        if (compiled) checks.push(compiled);
      }
    } else {
      for (const key in item) {
        if (GUARDRAIL_KEYS.has(key)) continue;
        const checkPath = joinPath(path, key);
        const compiled = this.#check(phase, key, item[key], checkPath, checkPath, issues);
        if (compiled) checks.push(compiled);
      }
    }
    if (issues.length > before) return undefined;
    const onFail = item['on_fail'] as { deny?: boolean; feedback?: HookFeedback } | undefined;
    const onSuccess = item['on_success'] as { feedback?: HookFeedback } | undefined;
    return {
      id: typeof item['id'] === 'string' && item['id'] !== '' ? item['id'] : defaultId,
      type: typeof item['type'] === 'string' ? item['type'] : 'guardrail',
      async: item['async'] === true,
      deny: item['deny'] === true || onFail?.deny === true,
      checks,
      onFail: onFail?.feedback,
      onSuccess: onSuccess?.feedback,
    };
  }

  #check(phase: GuardrailPhase, id: string, raw: unknown, idPath: string, paramsPath: string, issues: Issue[]): CompiledCheck | undefined {
    const impl = this.checks.get(id);
    if (!impl) {
      const loaded = this.checks.keys();
      issues.push({ path: idPath, rule: `unknown check "${id}" (loaded: ${loaded.length ? loaded.join(', ') : 'none'})` });
      return undefined;
    }
    if (impl.phases && !impl.phases.includes(phase)) {
      issues.push({ path: idPath, rule: `check "${id}" does not run in the ${phase} phase (it runs in: ${impl.phases.join(', ')})` });
      return undefined;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      issues.push({ path: paramsPath, rule: 'must be an object (the check\'s parameters)' });
      return undefined;
    }
    const given = structuredClone(raw) as Obj;
    const before = issues.length;
    if (!this.#runnerParams.check(given)) {
      for (const i of this.#runnerParams.issues(given)) issues.push({ path: under(paramsPath, i.path), rule: i.rule });
    }
    if (issues.length > before) return undefined;
    const timeout = given['timeout'] as number | undefined;
    const failOnError = given['failOnError'] as boolean | undefined;
    const params = impl.params ? this.#params(impl, given, paramsPath, issues) : given;
    if (!params) return undefined;
    return {
      id,
      impl,
      params: deepFreeze(params),
      timeoutMs: typeof params['timeout'] === 'number' ? params['timeout'] : timeout ?? this.limits.defaultTimeoutMs,
      failOnError: typeof params['failOnError'] === 'boolean' ? params['failOnError'] : failOnError === true,
    };
  }

  /** The check's schema (compiled once per check) with defaults, then its own rules. */
  #params(impl: GuardrailCheck<any>, given: Obj, path: string, issues: Issue[]): Obj | undefined {
    const schema = impl.params as TSchema;
    // Runner params reach the check only when its schema names them (strict schemas would refuse them).
    const declared = (schema as { properties?: Obj }).properties ?? {};
    for (const key of RUNNER_PARAMS) if (!(key in declared)) delete given[key];
    let validator = this.#validators.get(impl);
    if (!validator) {
      validator = compile(schema);
      this.#validators.set(impl, validator);
    }
    const value = Value.Default(schema, given) as Obj;
    if (!validator.check(value)) {
      for (const i of validator.issues(value)) issues.push({ path: under(path, i.path), rule: i.rule });
      return undefined;
    }
    let own: Issue[];
    try {
      own = impl.validate?.(value) ?? [];
    } catch (e) {
      own = [{ path: '', rule: `cannot be validated: ${(e as Error).message}` }];
    }
    if (own.length === 0) return value;
    for (const i of own) issues.push({ path: under(path, i.path), rule: i.rule });
    return undefined;
  }
}

/** `rel` (may be '') below `base` (may be ''). */
function under(base: string, rel: string): string {
  if (!rel) return base;
  return base ? `${base}.${rel}` : rel;
}

/** A config array that fails validation when it is first used (not validated through the kernel). */
export class PlanError extends Error {
  constructor(readonly issue: Issue) {
    super(`${issue.path}: ${issue.rule}`);
  }
}
