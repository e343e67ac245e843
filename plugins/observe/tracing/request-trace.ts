/**
 * One request's trace, kept in `ctx.values` (`TraceKey`): the W3C trace id and flags, the request span's id and
 * parent, and (when spans are exported) one span per target attempt. `spans()` turns it into OTLP
 * spans at the end: request (server), attempts (client), and the guardrail hooks that ran.
 */
import { GuardrailResultsKey, requestKey, type Completion, type GatewayResponse, type GuardrailRecord, type RequestContext } from '../../../core/index.js';
import { SpanKey } from '../trace-ids/contract.js';
import { attributes, SpanKind, StatusCode, unixNano, type OtlpSpan } from './otlp-exporter.js';
import { asSpanId, newSpanId, w3cTraceId, type TraceParent } from './trace-context.js';

export const TraceKey = requestKey<RequestTrace>('tracing.trace');

export interface AttemptSpan {
  spanId: string;
  target: string;
  provider: string | undefined;
  /** Epoch ms. */
  start: number;
  end?: number;
  status?: number;
  retries?: number;
  errorCode?: string | null;
}

export class RequestTrace {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly flags: string;
  readonly attempts: AttemptSpan[] = [];

  constructor(ctx: RequestContext, inbound: TraceParent | undefined, readonly recording: boolean) {
    const span = ctx.values.get(SpanKey);
    // An inbound traceparent keeps the distributed trace whole, even when x-gw-trace-id names the log's trace.
    this.traceId = inbound?.traceId ?? w3cTraceId(ctx.traceId || newSpanId() + newSpanId());
    this.spanId = asSpanId(span?.spanId) ?? newSpanId();
    this.parentSpanId = inbound?.parentId ?? asSpanId(span?.parentSpanId);
    this.flags = recording ? '01' : inbound?.flags ?? '00';
  }

  spans(ctx: RequestContext, response: GatewayResponse, completion: Completion): OtlpSpan[] {
    const start = performance.timeOrigin + ctx.startedAt;
    const end = start + completion.durationMs;
    const outcome = ctx.outcome;
    const span = ctx.values.get(SpanKey);
    const status = response.status;
    const out: OtlpSpan[] = [{
      traceId: this.traceId,
      spanId: this.spanId,
      ...(this.parentSpanId ? { parentSpanId: this.parentSpanId } : {}),
      name: span?.spanName ?? `${ctx.request.method} ${ctx.route.path}`,
      kind: SpanKind.SERVER,
      startTimeUnixNano: unixNano(start),
      endTimeUnixNano: unixNano(end),
      attributes: attributes({
        'http.request.method': ctx.request.method,
        'http.route': ctx.route.path,
        'http.response.status_code': status,
        'gw.trace_id': ctx.traceId || undefined,
        'gw.span_id': span?.spanId,
        'gw.endpoint': ctx.endpoint?.id,
        'gw.provider': outcome?.provider,
        'gw.target': outcome?.target?.$path,
        'gw.retry_count': outcome?.retries,
        'gw.cache_status': response.headers['x-gw-cache-status'],
        'gw.reason': ctx.reason,
        'gw.stream': ctx.endpoint ? ctx.stream : undefined,
      }),
      status: { code: status >= 500 || completion.error !== undefined ? StatusCode.ERROR : StatusCode.UNSET },
    }];
    for (const a of this.attempts) {
      out.push({
        traceId: this.traceId,
        spanId: a.spanId,
        parentSpanId: this.spanId,
        name: `attempt ${a.provider ?? 'unknown'}`,
        kind: SpanKind.CLIENT,
        startTimeUnixNano: unixNano(a.start),
        endTimeUnixNano: unixNano(a.end ?? end),
        attributes: attributes({
          'gw.target': a.target,
          'gw.provider': a.provider,
          'http.response.status_code': a.status,
          'gw.retry_count': a.retries,
          'error.type': a.errorCode ?? undefined,
        }),
        status: { code: a.status === undefined || a.status >= 400 ? StatusCode.ERROR : StatusCode.UNSET },
      });
    }
    const hooks = ctx.values.get(GuardrailResultsKey);
    if (hooks) for (const h of hooks) out.push(this.#hookSpan(h, start, end));
    return out;
  }

  /**
   * A hook's span carries the runner's own measured duration. Its parent is the attempt of its
   * target; it is placed at the start of that attempt (request-side hooks) or at its end (answer side).
   */
  #hookSpan(h: GuardrailRecord, requestStart: number, requestEnd: number): OtlpSpan {
    let attempt: AttemptSpan | undefined;
    for (let i = this.attempts.length - 1; i >= 0 && !attempt; i--) if (this.attempts[i]!.target === h.target) attempt = this.attempts[i];
    const requestSide = h.array === 'before_request_hooks' || h.array === 'input_guardrails';
    const duration = h.result.execution_time;
    const start = requestSide ? attempt?.start ?? requestStart : (attempt?.end ?? requestEnd) - duration;
    return {
      traceId: this.traceId,
      spanId: newSpanId(),
      parentSpanId: attempt?.spanId ?? this.spanId,
      name: `hook ${h.result.id}`,
      kind: SpanKind.INTERNAL,
      startTimeUnixNano: unixNano(start),
      endTimeUnixNano: unixNano(start + duration),
      attributes: attributes({
        'gw.hook.id': h.result.id,
        'gw.hook.array': h.array,
        'gw.hook.type': h.result.type,
        'gw.hook.verdict': h.result.verdict,
        'gw.hook.deny': h.result.deny,
        'gw.hook.async': h.result.async,
        'gw.hook.checks': h.result.checks.map((c) => c.id).join(','),
        'gw.target': h.target,
      }),
      status: { code: h.result.checks.some((c) => c.error) ? StatusCode.ERROR : StatusCode.UNSET },
    };
  }
}
