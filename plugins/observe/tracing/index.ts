/**
 * observe.tracing: W3C Trace Context in, out to providers, and OpenTelemetry spans to an OTLP
 * collector when one is configured.
 *
 *   - A valid inbound `traceparent` gives the request its trace id when no `x-gw-trace-id` is sent
 *     (so `x-gw-trace-id` on the answer and in the logs is the W3C trace id), and its parent-id
 *     becomes the request's parent span (`x-gw-parent-span-id` semantics) unless one was sent.
 *   - Every target attempt sends the provider `traceparent: 00-<trace>-<new span id>-<flags>`
 *     (`propagate`: always / only when the client sent one / never; `providers` limits which).
 *     The trace is the inbound one, else the gateway trace id in W3C form.
 *   - With OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or the `endpoint`
 *     option), spans of the request (server), each attempt (client; its id is the one the provider
 *     received) and each guardrail hook are exported as OTLP/HTTP JSON (otlp-exporter.ts).
 *     Sampling follows the parent: an inbound traceparent without the sampled flag is not recorded.
 */
import {
  MAX_TIMER_MS, Stage, StringEnum, Services, Type,
  type Plugin, type PluginApi, type Static,
} from '../../../core/index.js';
import { OtlpExporter } from './otlp-exporter.js';
import { SpanKey } from '../trace-ids/contract.js';
import { RequestTrace, TraceKey, type AttemptSpan } from './request-trace.js';
import { formatTraceparent, isSampled, newSpanId, parseTraceparent, w3cTraceId } from './trace-context.js';

const Options = Type.Object({
  /** When providers receive `traceparent`: on every attempt, only when the client sent one, or never. */
  propagate: StringEnum(['always', 'inbound', 'never'], { default: 'always' }),
  /** Provider ids that receive `traceparent`; `*` for all. */
  providers: Type.Array(Type.String({ minLength: 1 }), { default: ['*'] }),
  /** OTLP/HTTP traces URL; default from OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  endpoint: Type.Optional(Type.String({ pattern: '^https?://', errorMessage: 'must be an http(s) URL' })),
  /** `service.name` of exported spans; default OTEL_SERVICE_NAME or `gw`. */
  serviceName: Type.Optional(Type.String({ minLength: 1 })),
  maxQueueSize: Type.Integer({ minimum: 1, default: 2048 }),
  maxExportBatchSize: Type.Integer({ minimum: 1, default: 512 }),
  scheduledDelayMs: Type.Integer({ minimum: 10, maximum: MAX_TIMER_MS, default: 1000 }),
  exportTimeoutMs: Type.Integer({ minimum: 100, maximum: MAX_TIMER_MS, default: 10_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const now = () => performance.timeOrigin + performance.now();

export default class TracingPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'observe.tracing',
    description: 'W3C traceparent in and to providers; OpenTelemetry spans over OTLP/HTTP JSON',
    options: Options,
  };

  #exporter?: OtlpExporter;

  apply(api: PluginApi<Options>): void {
    const o = api.options;
    const env = api.settings.env;
    const url = otlpTracesUrl(o.endpoint, env);
    const exporter = url
      ? new OtlpExporter(api.services.get(Services.Transport), {
        url,
        headers: parseOtlpHeaders(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] ?? env['OTEL_EXPORTER_OTLP_HEADERS']),
        serviceName: o.serviceName ?? env['OTEL_SERVICE_NAME'] ?? 'gw',
        maxQueueSize: o.maxQueueSize,
        maxBatchSize: Math.min(o.maxExportBatchSize, o.maxQueueSize),
        delayMs: o.scheduledDelayMs,
        timeoutMs: o.exportTimeoutMs,
      }, api.logger)
      : undefined;
    this.#exporter = exporter;
    const everyProvider = o.providers.includes('*');
    const providers = new Set(o.providers);
    const sendsTo = (provider: unknown) => o.propagate !== 'never' && (everyProvider || (typeof provider === 'string' && providers.has(provider)));

    // After observe.trace-ids (TRACE), which sets the trace id from x-gw-trace-id or generates one.
    api.hooks.onRequest.tap({ name: api.id, stage: Stage.TRACE_CONTEXT }, (ctx) => {
      const headers = ctx.request.headers;
      const inbound = parseTraceparent(headers['traceparent']);
      if (inbound) {
        if (headers['x-gw-trace-id'] === undefined) {
          ctx.traceId = inbound.traceId;
          ctx.responseHeaders['x-gw-trace-id'] = inbound.traceId;
        }
        const span = ctx.values.get(SpanKey);
        if (span?.parentSpanId === undefined) ctx.values.set(SpanKey, { ...span, parentSpanId: inbound.parentId });
      }
      const recording = exporter !== undefined && (!inbound || isSampled(inbound.flags));
      if (inbound || recording) ctx.values.set(TraceKey, new RequestTrace(ctx, inbound, recording));
    });

    api.hooks.beforeRequest.tap({ name: api.id, stage: Stage.OBSERVE }, (attempt) => {
      const ctx = attempt.ctx;
      const trace = ctx.values.get(TraceKey);
      const send = sendsTo(attempt.target.provider);
      if (!trace) {
        // Neither an inbound trace nor one recorded: the gateway trace id joins W3C as it is.
        if (send && o.propagate === 'always') attempt.headers['traceparent'] = formatTraceparent(w3cTraceId(ctx.traceId || newSpanId()), newSpanId(), '00');
        return undefined;
      }
      const spanId = newSpanId();
      if (send) attempt.headers['traceparent'] = formatTraceparent(trace.traceId, spanId, trace.flags);
      if (trace.recording) {
        const span: AttemptSpan = { spanId, target: attempt.target.$path, provider: stringOr(attempt.target.provider), start: now() };
        trace.attempts.push(span);
        (attempt as WithSpan)[ATTEMPT_SPAN] = span;
      }
      return undefined;
    });

    if (!exporter) return;

    api.hooks.afterRequest.tap({ name: api.id, stage: Stage.OBSERVE }, (outcome, attempt) => {
      const span = (attempt as WithSpan)[ATTEMPT_SPAN];
      if (span) {
        span.end = now();
        span.status = outcome.status;
        span.retries = outcome.retries;
        span.errorCode = outcome.error?.code;
        span.provider = outcome.provider ?? span.provider;
      }
      return outcome;
    });

    api.hooks.onResponse.tap({ name: api.id, stage: Stage.OBSERVE }, (ctx, response, completion) => {
      const trace = ctx.values.get(TraceKey);
      if (!trace?.recording) return;
      try {
        exporter.add(trace.spans(ctx, response, completion));
      } catch (e) {
        api.logger.error({ err: e, traceId: ctx.traceId || undefined }, 'building trace spans failed');
      }
    });
  }

  async close(): Promise<void> {
    await this.#exporter?.shutdown();
  }
}

/** An attempt's span, kept on the attempt under a private symbol (cheaper for the collector than a WeakMap entry). */
const ATTEMPT_SPAN = Symbol('tracing.attempt-span');

interface WithSpan {
  [ATTEMPT_SPAN]?: AttemptSpan;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The traces URL from the option or the standard OpenTelemetry variables; undefined = no export. */
export function otlpTracesUrl(option: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (option) return option;
  if ((env['OTEL_SDK_DISABLED'] ?? '').toLowerCase() === 'true') return undefined;
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (!base) return undefined;
  return base.replace(/\/+$/, '') + '/v1/traces';
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `key=value,key2=value2`, values URL-encoded. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq).trim().toLowerCase();
    try {
      headers[key] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      headers[key] = pair.slice(eq + 1).trim();
    }
  }
  return headers;
}
