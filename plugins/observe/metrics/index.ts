/**
 * observe.metrics: `GET /metrics` (outside /v1, no gateway key) in the Prometheus text format.
 * With GW_METRICS_TOKEN set, a scrape needs `Authorization: Bearer <token>` (401 otherwise).
 *
 * Series (prefix `gw_` by default):
 *   requests_total{route,method,provider,status}, request_duration_seconds{route,provider}  every answered request
 *   cache_results_total{status}                 inference answers by x-gw-cache-status
 *   rate_limited_total{source}                  429s: the gateway's own limits vs providers'
 *   circuit_open_total{provider}                calls refused by an open circuit breaker
 *   limit_checks_skipped_total{check}           requests a rate or usage limit let through unchecked (counters failed or late)
 *   subject_calls_total{provider,called,status}, subject_call_duration_seconds{provider,called}
 *                                               calls that are not model calls (CallSubjectKey with a `model`): an MCP server's tool ...
 *   upstream_duration_seconds{provider}, tokens_total{provider,model,type}, cost_total{provider,model}
 *                                               from the request logs (observe.logs), when loaded
 *   log_queue_depth, log_queue_capacity, log_dropped_total, log_written_total, log_failed_total
 * Breaker state itself is not exposed (the breaker plugin publishes none): open circuits show as
 * circuit_open_total rising. Process metrics (`processMetrics`) are off by default.
 *
 * Label values a caller or a provider steers are bounded (a model name per request must not make a
 * series each): `model` keeps the `models` listed and the first `maxModels` others seen, every other
 * such label the first `maxLabelValues`; later values count as "other". Each metric also keeps at
 * most `maxSeries` series. A stream cut after its 200 counts under its error's status (502).
 */
import {
  CallSubjectKey, Errors, skippedChecksOf, Stage, Type, WrapStage,
  type GatewayResponse, type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { bearerCheck } from './bearer.js';
import { RequestLogsService } from '../logs/contract.js';
import { DEFAULT_BUCKETS, GatewayMetrics } from './gateway-metrics.js';

const Options = Type.Object({
  /** Prefix of every series name. */
  prefix: Type.String({ pattern: '^[a-zA-Z_:][a-zA-Z0-9_:]*$', default: 'gw_' }),
  /** Histogram buckets, seconds. */
  buckets: Type.Array(Type.Number({ exclusiveMinimum: 0 }), { minItems: 1, maxItems: 50, default: DEFAULT_BUCKETS }),
  /** prom-client's default process and Node.js series (CPU, memory, event-loop lag, GC). */
  processMetrics: Type.Boolean({ default: false }),
  /** Model names always kept as `model` label values (the models you serve). */
  models: Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 10_000, default: [] }),
  /** Distinct `model` values kept besides `models`, first seen first; later ones count as model="other". */
  maxModels: Type.Integer({ minimum: 0, maximum: 10_000, default: 100 }),
  /** Distinct values kept of each other label a caller or provider steers (route, provider, status, cache status). */
  maxLabelValues: Type.Integer({ minimum: 1, maximum: 10_000, default: 200 }),
  /** Series per metric; label sets beyond it count in one series whose labels all read "other". */
  maxSeries: Type.Integer({ minimum: 1, maximum: 100_000, default: 2000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const CACHE_STATUS_HEADER = 'x-gw-cache-status';

export default class MetricsPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'observe.metrics',
    description: 'GET /metrics in the Prometheus format (prom-client), optional bearer token GW_METRICS_TOKEN',
    options: Options,
  };

  #unsubscribe?: () => void;

  async apply(api: PluginApi<Options>): Promise<void> {
    // The request-log plugin may be applied after this one: looked up once the gateway runs.
    const feed = () => api.services.find(RequestLogsService);
    const metrics = new GatewayMetrics({
      prefix: api.options.prefix,
      buckets: [...api.options.buckets].sort((a, b) => a - b),
      processMetrics: api.options.processMetrics,
      limits: {
        models: api.options.models, maxModels: api.options.maxModels,
        maxLabelValues: api.options.maxLabelValues, maxSeries: api.options.maxSeries,
      },
      logStats: () => feed()?.stats(),
    });
    let subscribed = false;
    const subscribe = () => {
      if (subscribed) return;
      subscribed = true;
      this.#unsubscribe = feed()?.onRecords((recorded) => metrics.recorded(recorded));
    };
    const authorised = bearerCheck(api.settings.env['GW_METRICS_TOKEN']);

    api.registries.routes.add({
      method: 'GET', path: '/metrics', body: 'none', protected: false,
      handler: async (ctx): Promise<GatewayResponse> => {
        if (!authorised(ctx.request.headers['authorization'])) throw Errors.unauthorized('GET /metrics needs Authorization: Bearer <GW_METRICS_TOKEN>');
        subscribe();
        const registry = await metrics.registry();
        return {
          status: 200,
          headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
          raw: await registry.metrics(),
        };
      },
    });

    api.hooks.onResponse.tap({ name: api.id, stage: Stage.OBSERVE }, (ctx, response, completion) => {
      subscribe();
      // A stream cut after its 200 counts under its error's status.
      const status = completion.status;
      const subject = ctx.values.get(CallSubjectKey);
      metrics.request(ctx.route.path, ctx.request.method, subject?.provider ?? ctx.outcome?.provider ?? '', status, completion.durationMs / 1000);
      if (subject?.model !== undefined) metrics.subjectCall(subject.provider, subject.model, status, completion.durationMs / 1000);
      if (ctx.endpoint) {
        const cache = response.headers[CACHE_STATUS_HEADER];
        if (cache !== undefined) metrics.cacheResult(cache);
      }
      if (status === 429) metrics.rateLimited(isGatewayLimit(ctx.outcome?.error?.code, response) ? 'gateway' : 'provider');
      const skipped = skippedChecksOf(ctx);
      if (skipped) for (const check of skipped) metrics.limitCheckSkipped(check);
    });

    // Between the breaker and the cache: sees each breaker verdict, once per target.
    api.hooks.wrapAttempt.tap({ name: api.id, stage: WrapStage.AFTER_BREAKER }, (run, target) => {
      if (!target.cb_config) return run;
      return async (attempt) => {
        const outcome = await run(attempt);
        if (outcome.error?.code === 'circuit_open') metrics.circuitOpen(typeof target.provider === 'string' ? target.provider : '');
        return outcome;
      };
    });

    // Process metrics watch the process from the start (event-loop lag, GC): their registry is made now.
    if (api.options.processMetrics) await metrics.registry();
  }

  close(): void {
    this.#unsubscribe?.();
  }
}

/** A 429 of the gateway's own limits carries code `rate_limited` (core/errors.ts). */
function isGatewayLimit(code: string | null | undefined, response: GatewayResponse): boolean {
  if (code !== undefined && code !== null) return code === 'rate_limited';
  const envelope = response.json?.tryValue() as { error?: { code?: unknown }; provider?: unknown } | undefined;
  return envelope?.error?.code === 'rate_limited';
}
