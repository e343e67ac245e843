/**
 * The request lifecycle, declared once, in order. tapable enters the codebase here.
 *
 *   request scope   onRequest → resolveConfig → validateConfig → prepareBody → preRoute → [route] → respond → onResponse
 *   attempt scope   beforeRequest → guardInput → wrapAttempt(call) → guardOutput → afterRequest
 *   gateway scope   onError (any time), ready (once booted), close
 *
 * The keys of `createHooks` are in this order: `--describe` prints them so.
 *
 * Hook kinds are in the class names: Bail hooks stop at the first tap that returns a value,
 * Waterfall hooks pass each tap's result to the next, Parallel hooks are observers.
 */
import tapable from 'tapable';
import type { ConfigNode } from './config/types.js';
import type { Issue } from './schema.js';
import type { Attempt, AttemptRunner, GatewayResponse, Outcome, RequestContext, Target } from './types.js';

const { SyncHook, SyncWaterfallHook, AsyncSeriesHook, AsyncSeriesBailHook, AsyncSeriesWaterfallHook, AsyncParallelHook } = tapable;

/** A config before validation: an object, a stored-config id, or nothing yet. */
export type RawConfig = Record<string, unknown> | string | undefined;

/** What observers learn about a finished request. */
export interface Completion {
  /** The status to record: the answer's, or for a stream that ended with an error event, that error's (ctx.streamError). */
  status: number;
  /** Milliseconds from the start of the request to the end of the response (stream included). */
  durationMs: number;
  /** Set when the response failed to be produced or written. */
  error?: unknown;
}

export function createHooks() {
  return {
    /** Every protected route, before its handler: auth, tracing ids, rate limits. Throw a GatewayError to refuse. */
    onRequest: new AsyncSeriesHook<[RequestContext]>(['ctx']),
    /** Builds the raw config from headers, stored configs, prompts ... */
    resolveConfig: new AsyncSeriesWaterfallHook<[RawConfig, RequestContext]>(['config', 'ctx']),
    /**
     * Extra rules on each node of a config that passed the schema (strategy queries, check params ...):
     * the node as written, its path, the issues to add to, and the node with its inherited settings.
     * A tap must judge the node alone (and what was loaded at boot): a frozen config is validated
     * once and then trusted, so a rule that depends on records that can change (stored guardrails)
     * is checked again where they are used.
     */
    validateConfig: new SyncHook<[ConfigNode, string, Issue[], ConfigNode]>(['node', 'path', 'issues', 'effective']),
    /** After the config, before body validation: plugins may replace `ctx.body` (prompt templates ...). */
    prepareBody: new AsyncSeriesHook<[RequestContext]>(['ctx']),
    /** Before routing: may answer early (cache hit, limits). */
    preRoute: new AsyncSeriesBailHook<[RequestContext], GatewayResponse | undefined>(['ctx']),
    /** Per target: param shaping, before-request hooks. May answer early with an outcome. */
    beforeRequest: new AsyncSeriesBailHook<[Attempt], Outcome | undefined>(['attempt']),
    /** Per target: input guardrails. May deny with an outcome. */
    guardInput: new AsyncSeriesBailHook<[Attempt], Outcome | undefined>(['attempt']),
    /**
     * Wraps the call of one target: time-out (innermost), retry, circuit breaker, cache (outermost).
     * A tap builds its wrapper from the target alone (per-request state belongs inside the wrapper):
     * the kernel keeps the wrapped runner of a frozen target and re-uses it for later requests.
     */
    wrapAttempt: new SyncWaterfallHook<[AttemptRunner, Target]>(['run', 'target']),
    /** The provider call. The first tap that returns an outcome wins. */
    call: new AsyncSeriesBailHook<[Attempt], Outcome | undefined>(['attempt']),
    /** Per target: output guardrails; may replace the outcome (deny, redact). */
    guardOutput: new AsyncSeriesWaterfallHook<[Outcome, Attempt]>(['outcome', 'attempt']),
    /** Per target: after-request hooks; may replace the outcome. */
    afterRequest: new AsyncSeriesWaterfallHook<[Outcome, Attempt]>(['outcome', 'attempt']),
    /** Every response, error responses included: add headers, reshape. */
    respond: new AsyncSeriesWaterfallHook<[GatewayResponse, RequestContext]>(['response', 'ctx']),
    /** Observers, once the response is fully written (logs, metrics, usage, cache writes). */
    onResponse: new AsyncParallelHook<[RequestContext, GatewayResponse, Completion]>(['ctx', 'response', 'completion']),
    /** Observers of unexpected errors (bugs, not policy refusals). */
    onError: new SyncHook<[unknown, RequestContext | undefined]>(['error', 'ctx']),
    /** Once, after every plugin is applied: background work (resuming batches ...) starts here. */
    ready: new AsyncParallelHook<[]>([]),
    /** Gateway shutdown: flush and release. */
    close: new AsyncParallelHook<[]>([]),
  } as const;
}

export type Hooks = ReturnType<typeof createHooks>;

/**
 * Ordering of taps by named stages (lower runs first; for wrapAttempt, lower wraps innermost).
 * Plugins tap at these names only, so `--describe` can print where each tap sits.
 */
export const Stage = {
  FIRST: -1000,
  TRACE: -900,
  /** After the trace id is set: W3C trace context. */
  TRACE_CONTEXT: -800,
  /** Before the key check: a principal set here is trusted by it. */
  BEFORE_AUTH: -600,
  AUTH: -500,
  /** After the key check: adjusts the authenticated principal. */
  AFTER_AUTH: -400,
  LIMITS: -300,
  CONFIG: -200,
  /** After the header config, before stored and default configs: a route the body names itself (its model). */
  BODY_ROUTE: -190,
  /** After a config came from headers: a config id becomes the stored config. */
  STORED_CONFIG: -180,
  /** After the config is an object: references in it are resolved. */
  CONFIG_REFERENCES: -160,
  CACHE: -100,
  DEFAULT: 0,
  PARAMS: 100,
  HOOKS: 200,
  GUARDRAILS: 300,
  PROVIDER: 500,
  LATE: 900,
  OBSERVE: 1000,
} as const;

export const WrapStage = {
  /** Innermost: sees each provider call alone (timing). */
  CALL: 50,
  TIMEOUT: 100,
  RETRY: 200,
  BREAKER: 300,
  /** Just outside the breaker: sees each breaker verdict once per target. */
  AFTER_BREAKER: 350,
  /** Outermost: a cache hit answers without touching breaker, retries or the provider. */
  CACHE: 400,
} as const;

type TapOnly<H> = H extends { tap: infer T }
  ? Pick<H, Extract<keyof H, 'tap' | 'tapAsync' | 'tapPromise' | 'intercept'>> & { tap: T }
  : never;

/** What plugins get: hooks they can tap but never call. */
export type PluginHooks = { readonly [K in keyof Hooks]: TapOnly<Hooks[K]> };

export function tapOnly(hooks: Hooks): PluginHooks {
  const view: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(hooks)) {
    const h = hook as unknown as Record<string, (...a: unknown[]) => unknown>;
    view[name] = Object.freeze({
      tap: h['tap']!.bind(hook),
      tapAsync: h['tapAsync']?.bind(hook),
      tapPromise: h['tapPromise']?.bind(hook),
      intercept: h['intercept']!.bind(hook),
    });
  }
  return Object.freeze(view) as unknown as PluginHooks;
}
