/**
 * Helpers for unit tests of guardrail checks: a small CheckInput builder, a fake request context,
 * a real boot of the check's plugin (so the registration is tested too), and params validation
 * the way the runner does it (defaults applied, then the compiled TypeBox check).
 */
import {
  compile, createLogger, RequestValues, Value,
  type CheckInput, type CheckResult, type GuardrailCheck, type GuardrailPhase, type Issue, type PluginClass,
  type RequestContext, type Runtime, type Transport,
} from '../../core/index.js';
import { boot } from '../../core/boot.js';
import { UndiciTransport } from '../../core/transport.js';

export interface InputOptions {
  phase?: GuardrailPhase;
  json?: Record<string, unknown>;
  response?: { json?: unknown; text: string; status?: number };
  metadata?: Record<string, string>;
  endpoint?: string;
  provider?: string;
  model?: string;
  signal?: AbortSignal;
}

/** A request-side input (phase `input` unless told) whose request text is `text`. */
export function input(text: string, options: InputOptions = {}): CheckInput {
  const json = options.json ?? { model: options.model ?? 'gpt-4o-mini', messages: [{ role: 'user', content: text }] };
  const response = options.response
    ? { json: options.response.json ?? {}, text: options.response.text, status: options.response.status ?? 200 }
    : undefined;
  return {
    phase: options.phase ?? (response ? 'output' : 'input'),
    request: { json, text },
    response,
    metadata: options.metadata ?? {},
    endpoint: options.endpoint ?? 'chatComplete',
    provider: options.provider ?? 'openai',
    model: options.model ?? (typeof json['model'] === 'string' ? json['model'] : undefined),
    signal: options.signal ?? new AbortController().signal,
  };
}

/** A response-side input (phase `output`) whose answer text is `text`. */
export function output(text: string, options: InputOptions = {}): CheckInput {
  return input(options.json ? '' : 'the question', { ...options, response: { text, ...options.response } });
}

/** A request context with the given (lower-case) request headers; enough for checks. */
export function context(headers: Record<string, string> = {}, extra: Partial<RequestContext> = {}): RequestContext {
  return {
    request: { method: 'POST', path: '/v1/chat/completions', query: new URLSearchParams(), headers, body: {}, signal: new AbortController().signal },
    route: { method: 'POST', path: '/v1/chat/completions', handler: async () => ({ status: 200, headers: {} }) },
    params: {},
    startedAt: 0,
    traceId: 'trace-test',
    metadata: {},
    body: {},
    stream: false,
    responseHeaders: {},
    values: new RequestValues(),
    ...extra,
  } as RequestContext;
}

export const CTX = context();

export interface LoadOptions {
  /** Options of the check's plugin. */
  options?: unknown;
  /** More plugins to boot with it (e.g. a provider). */
  with?: PluginClass[];
  transport?: Transport;
}

/** Boots the plugin (and companions) and returns the runtime; close it in an after hook. */
export async function bootChecks(cls: PluginClass, load: LoadOptions = {}): Promise<Runtime> {
  const plugins = [...(load.with ?? []).map((c) => ({ cls: c, source: 'test' })), { cls, options: load.options, source: 'test' }];
  return boot({
    plugins,
    settings: { dataDir: '.', bodyLimit: 1 << 20, logLevel: 'silent', env: {} },
    logger: createLogger('silent'),
    transport: load.transport ?? new UndiciTransport({ connections: 8 }),
  });
}

/** The registered check with its params typed as given. */
export function checkFrom<P = Record<string, unknown>>(runtime: Runtime, id: string): TestableCheck<P> {
  const check = runtime.registries.checks.get(id);
  if (!check) throw new Error(`check ${id} is not registered (have: ${runtime.registries.checks.keys().join(', ')})`);
  return check as TestableCheck<P>;
}

/** A registered check with its params typed. */
export type TestableCheck<P> = GuardrailCheck<P>;

/** Loads one plugin that needs nothing else and returns its check. */
export async function loadCheck<P = Record<string, unknown>>(cls: PluginClass, id: string, load: LoadOptions = {}): Promise<{ check: TestableCheck<P>; runtime: Runtime }> {
  const runtime = await bootChecks(cls, load);
  return { check: checkFrom<P>(runtime, id), runtime };
}

export interface ParamsOutcome<P> {
  ok: boolean;
  issues: Issue[];
  /** The params with defaults applied. */
  value: P;
}

/** Validates params as the runner does: defaults, the compiled schema, then the check's own rules. */
export function validateParams<P>(check: TestableCheck<P>, params: unknown): ParamsOutcome<P> {
  if (!check.params) return { ok: true, issues: [], value: params as P };
  const value = Value.Default(check.params, structuredClone(params ?? {})) as P;
  const validator = compile(check.params);
  if (!validator.check(value)) return { ok: false, issues: validator.issues(value), value };
  const issues = check.validate?.(value) ?? [];
  return { ok: issues.length === 0, issues, value };
}

/** Runs a check with params validated (and defaulted) first; fails the test on invalid params. */
export async function run<P>(check: TestableCheck<P>, params: unknown, checkInput: CheckInput, ctx: RequestContext = CTX): Promise<CheckResult> {
  const parsed = validateParams(check, params);
  if (!parsed.ok) throw new Error(`invalid params ${JSON.stringify(params)}: ${JSON.stringify(parsed.issues)}`);
  return check.check(checkInput, parsed.value, ctx);
}

