/**
 * A stored guardrail is checked when it is written, as a config's inline guardrail would be when
 * it is loaded: every check id is loaded, its parameters pass the check's schema (defaults
 * applied) and its own rules. Parameter values whose names say they are secrets are masked in
 * answers; sending a mask back (GET → edit → PUT) keeps the stored value.
 */
import {
  compile, Errors, Type, Value,
  type GuardrailCheck, type GuardrailPhase, type Registry, type Static, type TSchema, type Validator,
} from '../../../core/index.js';
import type { CheckRef } from './record.js';

const Opt = <S extends TSchema>(s: S) => Type.Optional(s);
const Strict = { additionalProperties: false } as const;
const Feedback = Type.Object({ value: Opt(Type.Number()), weight: Opt(Type.Number()), metadata: Opt(Type.Object({})) }, Strict);
const Actions = Type.Object({
  deny: Opt(Type.Boolean()),
  async: Opt(Type.Boolean()),
  on_fail: Opt(Type.Object({ feedback: Opt(Feedback), deny: Opt(Type.Boolean()) }, Strict)),
  on_success: Opt(Type.Object({ feedback: Opt(Feedback) }, Strict)),
}, Strict);
const Check = Type.Object({ id: Type.String({ minLength: 1 }), parameters: Opt(Type.Object({})) }, Strict);
const Slug = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$', errorMessage: 'must be 1 to 63 letters, digits, _ . or -, starting with a letter or digit' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Checks = Type.Array(Check, { minItems: 1, maxItems: 32 });

export const CreateBody = Type.Object({
  name: Name,
  slug: Opt(Slug),
  workspace_id: Opt(Type.String({ minLength: 1, maxLength: 128 })),
  checks: Checks,
  actions: Opt(Actions),
}, Strict);
export const UpdateBody = Type.Object({ name: Opt(Name), slug: Opt(Slug), checks: Opt(Checks), actions: Opt(Actions) }, Strict);
export type CreateInput = Static<typeof CreateBody>;
export type UpdateInput = Static<typeof UpdateBody>;
export const validateCreate = compile(CreateBody);
export const validateUpdate = compile(UpdateBody);

/** Params every check accepts, read by the runner. */
const RunnerParams = compile(Type.Object({
  timeout: Opt(Type.Integer({ minimum: 1, maximum: 600_000 })),
  failOnError: Opt(Type.Boolean()),
}));
const RUNNER_KEYS = ['timeout', 'failOnError'] as const;

export class CheckValidator {
  readonly #validators = new WeakMap<GuardrailCheck<any>, Validator<unknown>>();

  constructor(private readonly checks: Registry<GuardrailCheck<any>>) {}

  /** Throws a 400 naming `checks.<i>...` for the first broken rule; returns the phases every check supports. */
  check(list: readonly CheckRef[] | readonly { id: string; parameters?: Record<string, unknown> }[]): GuardrailPhase[] {
    let phases: GuardrailPhase[] = ['beforeRequest', 'input', 'output', 'afterRequest'];
    list.forEach((c, i) => {
      const impl = this.checks.get(c.id);
      if (!impl) throw Errors.invalidBody(`checks.${i}.id`, `unknown check "${c.id}" (loaded: ${this.checks.keys().join(', ') || 'none'})`);
      if (impl.phases) phases = phases.filter((p) => impl.phases!.includes(p));
      this.#params(impl, structuredClone(c.parameters ?? {}), `checks.${i}.parameters`);
    });
    return phases;
  }

  #params(impl: GuardrailCheck<any>, given: Record<string, unknown>, path: string): void {
    const runnerIssue = RunnerParams.check(given) ? undefined : RunnerParams.issues(given)[0];
    if (runnerIssue) throw Errors.invalidBody(join(path, runnerIssue.path), runnerIssue.rule);
    if (!impl.params) return;
    const schema = impl.params;
    const declared = (schema as { properties?: Record<string, unknown> }).properties ?? {};
    for (const key of RUNNER_KEYS) if (!(key in declared)) delete given[key];
    let validator = this.#validators.get(impl);
    if (!validator) this.#validators.set(impl, (validator = compile(schema)));
    const value = Value.Default(schema, given);
    if (!validator.check(value)) {
      const issue = validator.issues(value)[0]!;
      throw Errors.invalidBody(join(path, issue.path), issue.rule);
    }
    let own;
    try {
      own = impl.validate?.(value as Record<string, unknown>)?.[0];
    } catch (e) {
      own = { path: '', rule: `cannot be validated: ${(e as Error).message}` };
    }
    if (own) throw Errors.invalidBody(join(path, own.path), own.rule);
  }
}

function join(base: string, rel: string): string {
  return rel ? `${base}.${rel}` : base;
}

// ---- masking ------------------------------------------------------------------------------

const SECRET_NAME = /(api[-_]?key|apikey|secret|token|password|passwd|authorization|credentials?|private[-_]?key)$/i;
const MASK = '********';

function maskOf(value: string): string {
  return value.length > 12 ? MASK + value.slice(-4) : MASK;
}

/** A copy with secret-named string values masked (objects walked). */
export function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_NAME.test(k) && typeof v === 'string' ? maskOf(v) : masked(v);
  return out;
}

/** `next` with every value that equals the mask of the value at the same place in `stored` replaced by that value. */
export function unmasked(next: unknown, stored: unknown): unknown {
  if (Array.isArray(next)) return next.map((v, i) => unmasked(v, Array.isArray(stored) ? stored[i] : undefined));
  if (!next || typeof next !== 'object') return next;
  const before = stored && typeof stored === 'object' ? stored as Record<string, unknown> : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) {
    const old = before[k];
    out[k] = SECRET_NAME.test(k) && typeof v === 'string' && typeof old === 'string' && v === maskOf(old) ? old : unmasked(v, old);
  }
  return out;
}
