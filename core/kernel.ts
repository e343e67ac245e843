/**
 * The kernel: runs one request through the lifecycle declared in hooks.ts.
 *
 *   handle ─ onRequest ─ route handler ─ respond ─ (host writes) ─ onResponse
 *   inference handler:
 *     resolveConfig → validate → prepareBody → body validation → preRoute ─┬─ early answer
 *                                          └─ route(config): strategy per node, recursion over targets
 *                                               leaf: beforeRequest → guardInput → wrapAttempt(call)
 *                                                     → guardOutput → afterRequest
 *
 * It knows no provider, strategy, check or header by name: those are plugins.
 */
import { RequestAttempt } from './attempt.js';
import { Errors, GatewayError, isGatewayError } from './errors.js';
import { JsonPayload } from './payload.js';
import { RequestValues } from './request-values.js';
import { validateConfig } from './config/validate.js';
import { noConfig, noProviderCall, type MissingPluginHints } from './missing-plugin.js';
import { RouteSettings } from './config/route-settings.js';
import type { ConfigNode } from './config/types.js';
import type { ConfigKeys } from './config/keys.js';
import type { Completion, Hooks } from './hooks.js';
import type { Registries } from './registries.js';
import type { Logger } from './logger.js';
import type {
  AttemptRunner, GatewayRequest, GatewayResponse, Outcome, RequestContext, RouteDef, Target, UpgradeRequest,
} from './types.js';

const EMPTY_BODY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export class Kernel {
  /** Frozen configs that passed validation: configs resolved from the same headers are the same object. */
  readonly #validated = new WeakSet<object>();
  readonly #routeSettings: RouteSettings;
  readonly #runners = new WeakMap<Target, AttemptRunner>();

  constructor(
    readonly hooks: Hooks,
    readonly registries: Registries,
    readonly logger: Logger,
    /** The route config as this gateway's plugins make it (assembled at boot). */
    readonly configKeys: ConfigKeys,
    private readonly missing: MissingPluginHints = {},
  ) {
    this.#routeSettings = new RouteSettings(configKeys);
  }

  createContext(request: GatewayRequest, route: RouteDef, params: Record<string, string>): RequestContext {
    return {
      request,
      route,
      params,
      startedAt: performance.now(),
      traceId: '',
      metadata: {},
      endpoint: route.endpoint,
      body: EMPTY_BODY,
      stream: false,
      responseHeaders: {},
      streamError: undefined,
      values: new RequestValues(),
    };
  }

  /**
   * Runs a matched route; never throws: every failure becomes an error response. `loadBody` lets a
   * host read the body after `onRequest` (so an unauthenticated client cannot make us read megabytes).
   */
  async handle(ctx: RequestContext, loadBody?: () => Promise<void>): Promise<GatewayResponse> {
    let response: GatewayResponse;
    try {
      if (ctx.route.protected !== false) await this.hooks.onRequest.promise(ctx);
      if (loadBody) await loadBody();
      response = await ctx.route.handler(ctx);
    } catch (e) {
      response = this.errorResponse(e, ctx);
    }
    for (const name in ctx.responseHeaders) response.headers[name] ??= ctx.responseHeaders[name]!;
    let answer: GatewayResponse;
    try {
      answer = await this.hooks.respond.promise(response, ctx);
    } catch (e) {
      answer = this.errorResponse(e, ctx);
    }
    // Only the stream being written can end with an error event the client sees; one read whole
    // before the answer was chosen (held by an output guardrail, then a fallback) was answered otherwise.
    ctx.streamError = undefined;
    return answer;
  }

  /**
   * Runs a matched route's `upgrade` handler after `onRequest`: undefined once the handler took the
   * connection over, else the refusal to write (never throws). Refusals go through `respond` as
   * every answer does; the host reports them with `complete`.
   */
  async handleUpgrade(ctx: RequestContext, upgrade: UpgradeRequest): Promise<GatewayResponse | undefined> {
    let response: GatewayResponse;
    try {
      const handler = ctx.route.upgrade;
      if (!handler) throw Errors.invalidRequest(`${ctx.route.method} ${ctx.route.path} does not switch protocols`, null, 'upgrade_not_supported');
      if (ctx.route.protected !== false) await this.hooks.onRequest.promise(ctx);
      const refusal = await handler.call(ctx.route, ctx, upgrade);
      if (!refusal) return undefined;
      response = refusal;
    } catch (e) {
      response = this.errorResponse(e, ctx);
    }
    for (const name in ctx.responseHeaders) response.headers[name] ??= ctx.responseHeaders[name]!;
    try {
      return await this.hooks.respond.promise(response, ctx);
    } catch (e) {
      return this.errorResponse(e, ctx);
    }
  }

  /** The handler of every inference route. */
  async runInference(ctx: RequestContext): Promise<GatewayResponse> {
    const endpoint = ctx.endpoint;
    if (!endpoint) throw new Error(`route ${ctx.route.method} ${ctx.route.path} has no endpoint`);
    const body = ctx.request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw Errors.invalidBody('', 'must be a JSON object');
    }
    ctx.body = body as Record<string, unknown>;
    ctx.stream = ctx.body['stream'] === true;

    const config = await this.resolveConfig(ctx);
    await this.hooks.prepareBody.promise(ctx);

    if (!config.passthrough) {
      const issues = endpoint.validate(ctx.body);
      if (issues.length > 0) throw Errors.invalidBody(issues[0]!.path, issues[0]!.rule);
      if (ctx.stream && !endpoint.streamable) throw Errors.invalidBody('stream', `is not supported on ${ctx.route.path}`);
      if (endpoint.normalize) ctx.body = endpoint.normalize(ctx.body);
    }

    const early = await this.hooks.preRoute.promise(ctx);
    if (early) return early;

    const outcome = await this.route(config, undefined, 'config', ctx);
    ctx.outcome = outcome;
    if (outcome.response) return outcome.response;
    throw outcome.error ?? Errors.internal();
  }

  /**
   * The preRoute taps (rate and usage limits ...) for a route that answers without runInference
   * (an MCP tool call): an early answer, or undefined to go on; a refusal throws (429 ...).
   */
  preRoute(ctx: RequestContext): Promise<GatewayResponse | undefined> {
    return this.hooks.preRoute.promise(ctx);
  }

  /**
   * The request's route config (headers, stored configs ...), validated; also sets `ctx.config`.
   * Feature routes that call providers outside the inference lifecycle use it too.
   */
  async resolveConfig(ctx: RequestContext): Promise<ConfigNode> {
    const raw = await this.hooks.resolveConfig.promise(undefined, ctx);
    if (raw === undefined) throw noConfig(ctx.request.headers, this.missing);
    if (typeof raw === 'string') throw Errors.invalidConfig('', `unknown config id "${raw}"`);
    if (this.#validated.has(raw)) return (ctx.config = raw as ConfigNode);
    ctx.config = validateConfig(raw, this.hooks, this.configKeys);
    if (Object.isFrozen(raw)) this.#validated.add(raw);
    return ctx.config;
  }

  /** Routes one node of the target tree; children inherit the node's settings unless they set their own. */
  route(node: ConfigNode, parent: ConfigNode | undefined, path: string, ctx: RequestContext): Promise<Outcome> {
    const targets = node.targets;
    const branch = targets !== undefined && targets.length > 0;
    const settings = this.#routeSettings.settings(parent, node, path, !branch);
    if (branch) {
      const mode = node.strategy?.mode ?? 'single';
      const strategy = this.registries.strategies.get(mode);
      if (!strategy) {
        return Promise.resolve(failed(Errors.invalidConfig(path === 'config' ? 'strategy.mode' : `${path.slice(7)}.strategy.mode`, `no strategy plugin for "${mode}" is loaded`)));
      }
      const passedDown = this.#routeSettings.passedDown(node, settings);
      return strategy.route(node, (index) => {
        const child = targets[index];
        if (!child) return Promise.resolve(failed(Errors.internal()));
        return this.route(child, passedDown, `${path}.targets[${index}]`, ctx);
      }, ctx, path);
    }
    return this.runTarget(settings as Target, ctx);
  }

  /** One leaf: the attempt-scope hooks around the wrapped provider call. */
  async runTarget(target: Target, ctx: RequestContext): Promise<Outcome> {
    const attempt = new RequestAttempt(ctx, target);
    let outcome: Outcome;
    try {
      const early = (await this.hooks.beforeRequest.promise(attempt)) ?? (await this.hooks.guardInput.promise(attempt));
      if (early) {
        outcome = early;
      } else {
        const run = this.#runnerFor(target);
        outcome = await run(attempt);
        outcome = await this.hooks.guardOutput.promise(outcome, attempt);
        outcome = await this.hooks.afterRequest.promise(outcome, attempt);
      }
    } catch (e) {
      outcome = failed(this.asGatewayError(e, ctx));
    }
    outcome.target ??= target;
    return outcome;
  }

  /** The wrapped call of a target; kept for frozen targets (the same config resolved again). */
  #runnerFor(target: Target): AttemptRunner {
    let run = this.#runners.get(target);
    if (!run) {
      run = this.hooks.wrapAttempt.call(this.#callOnce, target);
      if (Object.isFrozen(target)) this.#runners.set(target, run);
    }
    return run;
  }

  readonly #callOnce: AttemptRunner = async (attempt) => {
    try {
      const outcome = await this.hooks.call.promise(attempt);
      if (outcome) return outcome;
      const provider = attempt.target.provider;
      if (!provider) return failed(Errors.invalidConfig('provider', 'is required for a target'));
      if (this.registries.providers.has(provider)) return failed(noProviderCall(provider, this.missing));
      return failed(Errors.unknownProvider(provider));
    } catch (e) {
      return failed(this.asGatewayError(e, attempt.ctx));
    }
  };

  /** Tells observers that a response has been written (or failed to be). Never throws. */
  complete(ctx: RequestContext, response: GatewayResponse, error?: unknown): void {
    const streamError = ctx.streamError;
    const completion: Completion = {
      status: streamError ? streamError.status : response.status,
      durationMs: performance.now() - ctx.startedAt,
      error: error ?? streamError,
    };
    this.hooks.onResponse.promise(ctx, response, completion).catch((e) => {
      this.logger.error({ err: e }, 'onResponse observer failed');
    });
  }

  errorResponse(e: unknown, ctx?: RequestContext): GatewayResponse {
    const error = this.asGatewayError(e, ctx);
    return {
      status: error.status,
      headers: { 'content-type': 'application/json', ...error.headers },
      json: JsonPayload.of(error.toEnvelope()),
    };
  }

  asGatewayError(e: unknown, ctx?: RequestContext): GatewayError {
    if (isGatewayError(e)) return e;
    try {
      this.hooks.onError.call(e, ctx);
    } catch {
      /* an observer must never turn one error into two */
    }
    this.logger.error({ err: e, traceId: ctx?.traceId }, 'unexpected error');
    return Errors.internal();
  }
}

export function failed(error: GatewayError): Outcome {
  return { status: error.status, error, retries: 0 };
}
