/**
 * A minimal OTLP/HTTP JSON trace exporter (the OpenTelemetry protocol's JSON encoding: hex ids,
 * nanosecond times as strings), instead of the whole OpenTelemetry SDK. Spans wait in a bounded
 * queue (oldest dropped and counted), and are POSTed in batches to `<endpoint>/v1/traces` through
 * the gateway's shared transport, every `delayMs` or as soon as a batch is full, one request at a
 * time, each bounded by `timeoutMs`. A failed export is counted and dropped; nothing ever waits
 * for the collector on a request's path.
 */
import type { Logger, Transport } from '../../../core/index.js';

export type AttributeValue = string | number | boolean;

export interface OtlpAttribute {
  key: string;
  value: { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
}

export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;
export const StatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: number; message?: string };
}

export interface ExporterOptions {
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  maxQueueSize: number;
  maxBatchSize: number;
  delayMs: number;
  timeoutMs: number;
}

export interface ExporterStats {
  queued: number;
  exported: number;
  dropped: number;
  failed: number;
}

const WARNING_INTERVAL_MS = 10_000;

export function attributes(values: Record<string, AttributeValue | null | undefined>): OtlpAttribute[] {
  const out: OtlpAttribute[] = [];
  for (const key in values) {
    const v = values[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') out.push({ key, value: { stringValue: v } });
    else if (typeof v === 'boolean') out.push({ key, value: { boolValue: v } });
    else if (Number.isInteger(v)) out.push({ key, value: { intValue: String(v) } });
    else out.push({ key, value: { doubleValue: v } });
  }
  return out;
}

/** Epoch milliseconds (with a fraction) as OTLP's nanosecond string, without losing precision. */
export function unixNano(ms: number): string {
  const whole = Math.floor(ms);
  return (BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6))).toString();
}

export class OtlpExporter {
  #queue: OtlpSpan[] = [];
  readonly #timer: NodeJS.Timeout;
  readonly #resource: { attributes: OtlpAttribute[] };
  #sending: Promise<void> | undefined;
  #scheduled = false;
  #exported = 0;
  #dropped = 0;
  #failed = 0;
  #warnedAt = -Infinity;

  constructor(private readonly transport: Transport, private readonly o: ExporterOptions, private readonly logger: Logger) {
    this.#resource = { attributes: attributes({ 'service.name': o.serviceName, 'telemetry.sdk.name': 'gw', 'telemetry.sdk.language': 'nodejs' }) };
    this.#timer = setInterval(() => void this.flush(), o.delayMs);
    this.#timer.unref();
  }

  add(spans: readonly OtlpSpan[]): void {
    for (const span of spans) this.#queue.push(span);
    const excess = this.#queue.length - this.o.maxQueueSize;
    if (excess > 0) {
      this.#queue.splice(0, excess);
      this.#dropped += excess;
    }
    if (this.#queue.length >= this.o.maxBatchSize && !this.#sending && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.flush();
      });
    }
  }

  /** Sends everything queued, batch by batch; resolves when the queue is empty. */
  flush(): Promise<void> {
    if (this.#sending) return this.#sending;
    if (this.#queue.length === 0) return Promise.resolve();
    this.#sending = this.#drain().finally(() => {
      this.#sending = undefined;
    });
    return this.#sending;
  }

  stats(): ExporterStats {
    return { queued: this.#queue.length, exported: this.#exported, dropped: this.#dropped, failed: this.#failed };
  }

  /** Sends what is queued, for at most one export time-out in all: a hung collector must not hold a shutdown. */
  async shutdown(): Promise<void> {
    clearInterval(this.#timer);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.o.timeoutMs);
      timer.unref();
    });
    await Promise.race([this.flush().then(() => this.flush()), deadline]);
    clearTimeout(timer);
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.o.maxBatchSize);
      await this.#send(batch);
    }
  }

  async #send(spans: OtlpSpan[]): Promise<void> {
    const body = JSON.stringify({
      resourceSpans: [{ resource: this.#resource, scopeSpans: [{ scope: { name: 'gw' }, spans }] }],
    });
    try {
      const reply = await this.transport.send(
        { url: this.o.url, method: 'POST', headers: { ...this.o.headers, 'content-type': 'application/json' }, body },
        AbortSignal.timeout(this.o.timeoutMs),
      );
      await reply.dump().catch(() => undefined);
      if (reply.status >= 300) throw new Error(`collector answered ${reply.status}`);
      this.#exported += spans.length;
    } catch (e) {
      this.#failed += spans.length;
      const now = performance.now();
      if (now - this.#warnedAt >= WARNING_INTERVAL_MS) {
        this.#warnedAt = now;
        this.logger.warn({ err: e, url: this.o.url }, `OTLP export of ${spans.length} span(s) failed`);
      }
    }
  }
}
