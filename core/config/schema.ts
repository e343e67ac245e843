/**
 * The route config object of spec §2.1: its TypeBox schema and `checkConfig`, which the kernel
 * runs on every request before plugins add their own per-node rules (validate.ts).
 *
 * How it checks: each node of the target tree is checked key by key with compiled TypeBox
 * validators (unknown keys rejected), then by small hand-written checks for what TypeBox reports
 * poorly (string-or-object guardrail items) or cannot express (rules across keys: strategy modes,
 * conditional target names, passthrough exclusions, the key groups of the root). Then the walk
 * goes down into `targets`. Everything is compiled at module load; a valid config allocates
 * little more than the returned empty array (the caller appends to it).
 */
import { Type, StringEnum, compile, type Issue, type TSchema, type Validator } from '../schema.js';
import { DAY_MS, HOUR_MS, MAX_TTL_SECONDS } from '../bounds.js';

/** Our caps where the spec names none: a timer longer than an hour, or a weight past a million, is a mistake. */
const MAX_REQUEST_TIMEOUT_MS = HOUR_MS;
const MAX_FAILURE_THRESHOLD = 1_000_000;
const MAX_WEIGHT = 1_000_000;

// ---- leaf schemas -------------------------------------------------------------------------

const NonEmptyString = (options: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, errorMessage: 'must be a non-empty string', ...options });
const StatusCode = Type.Integer({ minimum: 100, maximum: 599 });
const StatusCodes = Type.Array(StatusCode);
/** Any JSON object (not an array): TypeBox's object check rejects arrays by default. */
const AnyObject = Type.Object({});
const Strict = { additionalProperties: false } as const;
const Opt = <S extends TSchema>(schema: S) => Type.Optional(schema);

const HttpUrl = Type.String({ pattern: '^https?://[^\\s/?#]+(?:[/?#]\\S*)?$', errorMessage: 'must be an http(s) URL' });
const BearerToken = Type.String({ pattern: '^Bearer \\S', errorMessage: 'must start with "Bearer "' });

const STRATEGY_MODES = ['single', 'loadbalance', 'fallback', 'conditional'] as const;

const Strategy = Type.Object({
  mode: StringEnum([...STRATEGY_MODES]),
  // `query` operators are checked by the conditional strategy plugin, not here.
  conditions: Opt(Type.Array(Type.Object({ query: AnyObject, then: Type.String() }, Strict), { minItems: 1 })),
  default: Opt(Type.String()),
  on_status_codes: Opt(StatusCodes),
}, Strict);

const Cache = Type.Object({
  mode: StringEnum(['simple', 'semantic']),
  max_age: Opt(Type.Integer({ minimum: 0, maximum: MAX_TTL_SECONDS })), // seconds
}, Strict);

const Retry = Type.Object({
  // At most 10 (our cap; the spec names none): each attempt may wait with back-off, so more
  // attempts only multiply latency and provider cost.
  attempts: Type.Integer({ minimum: 0, maximum: 10 }),
  on_status_codes: Opt(StatusCodes),
  use_retry_after_headers: Opt(Type.Boolean()),
}, Strict);

const CircuitBreaker = Type.Object({
  failure_threshold: Type.Number({ minimum: 1, maximum: MAX_FAILURE_THRESHOLD }),
  cooldown_interval: Type.Number({ minimum: 30000, maximum: DAY_MS }), // milliseconds
  failure_status_codes: Opt(StatusCodes),
}, Strict);

const Deployment = Type.Object({
  deployment_id: Type.String(),
  alias: Type.String(),
  api_version: Type.String(),
  is_default: Opt(Type.Boolean()),
}, Strict);

const Feedback = Type.Object({
  value: Opt(Type.Number()),
  weight: Opt(Type.Number()),
  metadata: Opt(AnyObject),
}, Strict);

const Outcome = Type.Object({ feedback: Opt(Feedback), deny: Opt(Type.Boolean()) }, Strict);

const Hook = Type.Object({
  id: Type.String(),
  type: Opt(Type.String()),
  async: Opt(Type.Boolean()),
  deny: Opt(Type.Boolean()),
  on_fail: Opt(Outcome),
  on_success: Opt(Outcome),
  checks: Opt(Type.Array(Type.Object({ id: Type.String(), parameters: AnyObject }, Strict))),
}, Strict);

/** A guardrail given inline; its further keys are checks keyed by check id, each an object. */
function GuardrailObject(outcome: TSchema) {
  return Type.Object({
    id: Opt(Type.String()),
    deny: Opt(Type.Boolean()),
    async: Opt(Type.Boolean()),
    on_fail: Opt(outcome),
    on_success: Opt(outcome),
  }, { additionalProperties: Type.Object({}, { errorMessage: 'must be an object (a check keyed by its id)' }) });
}
// Only output guardrails can deny from on_fail / on_success (spec §2.1).
const InputGuardrail = GuardrailObject(Type.Object({ feedback: Opt(Feedback) }, Strict));
const OutputGuardrail = GuardrailObject(Outcome);
const GuardrailId = NonEmptyString();

// ---- the node ---------------------------------------------------------------------------

/** Every key of a node except the recursive `targets` and the union-typed guardrail arrays; all optional. */
const NodeFields = {
  strategy: Strategy,
  provider: NonEmptyString(),
  api_key: Type.String(),
  virtual_key: Type.String(),
  custom_host: HttpUrl,
  name: Type.String(),
  strict_compat_compliance: Type.Boolean(),
  override_params: AnyObject,
  default_params: AnyObject,
  drop_params: Type.Array(NonEmptyString()),
  prompt_id: Type.String(),
  request_timeout: Type.Integer({ minimum: 1, maximum: MAX_REQUEST_TIMEOUT_MS }), // milliseconds
  cache: Cache,
  retry: Retry,
  cb_config: CircuitBreaker,
  weight: Type.Number({ minimum: 0, maximum: MAX_WEIGHT }),
  on_status_codes: StatusCodes,
  passthrough: Type.Boolean(),
  forward_headers: Type.Array(NonEmptyString()),
  resource_name: Type.String(),
  deployment_id: Type.String(),
  api_version: Type.String(),
  deployments: Type.Array(Deployment),
  before_request_hooks: Type.Array(Hook),
  after_request_hooks: Type.Array(Hook),
  cloudA_access_key_id: Type.String(),
  cloudA_secret_access_key: Type.String(),
  cloudA_region: Type.String(),
  cloudA_session_token: Type.String(),
  cloudB_region: Type.String(),
  cloudB_deployment_name: Type.String(),
  cloudB_deployment_type: StringEnum(['serverless', 'managed']),
  cloudB_endpoint_name: Type.String(),
  cloudB_api_version: Type.String(),
  cloudB_resource_name: Type.String(),
  cloudB_deployment_id: Type.String(),
  cloudB_model_name: Type.String(),
  Authorization: BearerToken,
  cloudC_project_id: Type.String(),
  cloudC_region: Type.String(),
  cloudC_service_account_json: AnyObject,
  vendorD_organization: Type.String(),
  vendorD_project: Type.String(),
};

/**
 * The whole §2.1 shape, recursive over `targets`, for reuse (docs, other validators).
 * Rules across keys (key groups, strategy modes, target names, passthrough) are in checkConfig only.
 */
export const ConfigSchema = Type.Recursive((Self) => Type.Partial(Type.Object({
  ...NodeFields,
  targets: Type.Array(Self, { minItems: 1 }),
  input_guardrails: Type.Array(Type.Union([GuardrailId, InputGuardrail])),
  output_guardrails: Type.Array(Type.Union([GuardrailId, OutputGuardrail])),
}, Strict)), { $id: 'GatewayConfig' });

/**
 * The walk checks a node key by key, with one compiled validator per key: a node carries a few
 * of ~45 keys, and one whole-object check would probe all of them on every node. The items of
 * `targets` and of the guardrail arrays are walked by hand.
 */
const FIELDS: ReadonlyMap<string, Validator<unknown>> = new Map(Object.entries({
  ...NodeFields,
  targets: Type.Array(AnyObject, { minItems: 1 }),
  input_guardrails: Type.Array(Type.Unknown()),
  output_guardrails: Type.Array(Type.Unknown()),
} as Record<string, TSchema>).map(([key, schema]) => [key, compile(schema)]));
const inputGuardrail = compile(InputGuardrail);
const outputGuardrail = compile(OutputGuardrail);

type Node = Record<string, unknown>;

// ---- the walk ---------------------------------------------------------------------------

export function checkConfig(value: unknown): Issue[] {
  const issues: Issue[] = [];
  if (!isObject(value)) {
    issues.push({ path: '', rule: 'must be a JSON object' });
    return issues;
  }
  checkNode(value, '', issues);
  // Last: a missing key group is the least specific problem.
  const group = checkKeyGroups(value);
  if (group) issues.push({ path: '', rule: group });
  return issues;
}

/** `prefix` is the node's path followed by '.', or '' for the root. */
function checkNode(n: Node, prefix: string, issues: Issue[]): void {
  let shapeOk = true;
  for (const key in n) {
    const field = FIELDS.get(key);
    const value = n[key];
    // An undefined value is an absent key (a config assembled in code, not parsed from JSON).
    if (value === undefined || field?.check(value)) continue;
    shapeOk = false;
    if (!field) issues.push(at(prefix, key, 'is not an allowed key'));
    else for (const i of field.issues(value)) issues.push(at(prefix, i.path ? `${key}.${i.path}` : key, i.rule));
  }
  if (Array.isArray(n['input_guardrails'])) shapeOk = checkGuardrails(n['input_guardrails'], inputGuardrail, prefix + 'input_guardrails.', issues) && shapeOk;
  if (Array.isArray(n['output_guardrails'])) shapeOk = checkGuardrails(n['output_guardrails'], outputGuardrail, prefix + 'output_guardrails.', issues) && shapeOk;
  // Rules across keys assume the types are right; a node with type errors is reported as such.
  if (shapeOk) {
    checkPassthrough(n, prefix, issues);
    checkStrategy(n, prefix, issues);
  }
  const targets = n['targets'];
  if (Array.isArray(targets)) {
    for (let i = 0; i < targets.length; i++) {
      const t: unknown = targets[i];
      if (isObject(t)) checkNode(t, `${prefix}targets.${i}.`, issues);
    }
  }
}

function checkGuardrails(items: unknown[], validator: typeof inputGuardrail, prefix: string, issues: Issue[]): boolean {
  let ok = true;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'string') {
      if (item.length > 0) continue;
      issues.push(at(prefix, String(i), 'must be a non-empty string'));
    } else if (isObject(item)) {
      if (validator.check(item)) continue;
      for (const e of validator.issues(item)) issues.push(at(prefix, e.path ? `${i}.${e.path}` : String(i), e.rule));
    } else {
      issues.push(at(prefix, String(i), 'must be a guardrail id (string) or a guardrail object'));
    }
    ok = false;
  }
  return ok;
}

function checkStrategy(n: Node, prefix: string, issues: Issue[]): void {
  const strategy = n['strategy'] as { mode: string; conditions?: { then: string }[]; default?: string; on_status_codes?: unknown } | undefined;
  if (!strategy) return;
  const targets = n['targets'] as Node[] | undefined;
  if (!targets) issues.push(at(prefix, 'targets', 'is required when strategy.mode is set'));
  if (strategy.on_status_codes !== undefined && strategy.mode !== 'fallback') {
    issues.push(at(prefix, 'strategy.on_status_codes', 'is only allowed when strategy.mode is "fallback"'));
  }
  if (strategy.mode !== 'conditional') return;
  const { conditions, default: fallbackName } = strategy;
  if (!conditions) issues.push(at(prefix, 'strategy.conditions', 'is required when strategy.mode is "conditional"'));
  if (fallbackName === undefined) issues.push(at(prefix, 'strategy.default', 'is required when strategy.mode is "conditional"'));
  if (!targets) return;
  if (conditions) {
    for (let i = 0; i < conditions.length; i++) {
      const then = conditions[i]!.then;
      if (!hasTargetNamed(targets, then)) issues.push(at(prefix, `strategy.conditions.${i}.then`, noTargetNamed(then)));
    }
  }
  if (fallbackName !== undefined && !hasTargetNamed(targets, fallbackName)) {
    issues.push(at(prefix, 'strategy.default', noTargetNamed(fallbackName)));
  }
}

function hasTargetNamed(targets: Node[], name: string): boolean {
  for (const t of targets) if (t['name'] === name) return true;
  return false;
}

function noTargetNamed(name: string): string {
  return `must name a target of this node: no target is named ${JSON.stringify(name)}`;
}

/** A passthrough node forwards the request as is, so it cannot route, rewrite or guard it (§2.1, §7). */
const PASSTHROUGH_EXCLUDES = ['strategy', 'targets', 'override_params', 'input_guardrails', 'output_guardrails', 'before_request_hooks', 'after_request_hooks'] as const;

function checkPassthrough(n: Node, prefix: string, issues: Issue[]): void {
  if (n['passthrough'] !== true) return;
  for (const key of PASSTHROUGH_EXCLUDES) {
    if (n[key] !== undefined) issues.push(at(prefix, key, 'cannot be combined with passthrough'));
  }
}

// ---- key groups of the root -------------------------------------------------------------

/** A root config is valid when all keys of at least one group are present (§2.1). */
const KEY_GROUPS: readonly (readonly string[])[] = [
  ['provider', 'api_key'],
  ['provider', 'custom_host'],
  ['virtual_key'],
  ['strategy', 'targets'],
  ['cache'],
  ['retry'],
  ['prompt_id'],
  ['forward_headers'],
  ['request_timeout'],
  ['provider', 'cloudA_access_key_id', 'cloudA_secret_access_key'],
  ['provider', 'cloudC_region', 'cloudC_service_account_json'],
  ['provider', 'cloudC_region', 'cloudC_project_id'],
  ['provider', 'cloudB_deployment_name', 'cloudB_deployment_type', 'cloudB_region', 'cloudB_api_version'],
  ['provider', 'cloudB_endpoint_name', 'cloudB_deployment_type'],
  ['after_request_hooks'],
  ['before_request_hooks'],
  ['input_guardrails'],
  ['output_guardrails'],
  ['passthrough'],
  // Beyond the spec's list: cloudB token auth carries its credential in Authorization.
  ['provider', 'Authorization'],
];

const NO_GROUP = 'needs provider with api_key, custom_host, Authorization or cloud credentials, '
  + 'a provider "@slug", virtual_key, strategy with targets, or one of cache, retry, request_timeout, '
  + 'prompt_id, forward_headers, passthrough, hooks or guardrails';

/** The rule broken when no key group is complete, or undefined when one is. */
function checkKeyGroups(n: Node): string | undefined {
  const provider = n['provider'];
  // A stored integration (`@slug`) holds its own credentials.
  if (typeof provider === 'string' && provider.length > 1 && provider[0] === '@') return undefined;
  for (const group of KEY_GROUPS) if (hasAll(n, group)) return undefined;
  // Name what the nearest started group lacks; a bare provider starts no group by itself.
  let best: readonly string[] | undefined;
  let bestCount = 0;
  for (const group of KEY_GROUPS) {
    let count = 0;
    let started = false;
    for (const key of group) {
      if (n[key] === undefined) continue;
      count++;
      if (key !== 'provider') started = true;
    }
    // Most keys present first; on a tie, the group that lacks fewer keys.
    if (started && (count > bestCount || (count === bestCount && best && group.length < best.length))) { best = group; bestCount = count; }
  }
  if (best) {
    const have = best.filter((k) => n[k] !== undefined);
    const missing = best.filter((k) => n[k] === undefined);
    return `has ${have.join(', ')} but also needs ${missing.join(', ')}`;
  }
  if (provider !== undefined) {
    return `provider ${JSON.stringify(provider)} needs api_key, custom_host, Authorization or cloud credentials (or use a provider "@slug" or virtual_key)`;
  }
  return NO_GROUP;
}

function hasAll(n: Node, keys: readonly string[]): boolean {
  for (const key of keys) if (n[key] === undefined) return false;
  return true;
}

// ---- helpers ----------------------------------------------------------------------------

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An issue at `prefix` + `rel`; `prefix` ends with '.' (or is ''), `rel` may be '' (the node itself). */
function at(prefix: string, rel: string, rule: string): Issue {
  return { path: rel ? prefix + rel : prefix.slice(0, -1), rule };
}
