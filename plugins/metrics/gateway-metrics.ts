/**
 * prom-client enters the codebase here. One Registry per gateway (never prom-client's global
 * one), so two gateways in one process keep separate series. Label values are bounded: route
 * patterns (not URLs), provider ids, status codes, models, cache statuses.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds; from a fast cached answer to a long generation. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** Label children kept for reuse, so a request does not hash its labels; beyond it they are looked up each time. */
const MAX_CACHED_CHILDREN = 10_000;

export interface LogQueueStats {
  queued: number;
  capacity: number;
  dropped: number;
  written: number;
  failed: number;
}

export interface RecordedUsage {
  provider: string | null;
  model: string | null;
  upstreamMs: number | null;
  usage: { prompt_tokens: number | null; completion_tokens: number | null } | undefined;
  cost: number | null;
}

interface RequestSeries {
  count: { inc(): void };
  duration: { observe(value: number): void };
}

export interface MetricsOptions {
  prefix: string;
  buckets: number[];
  processMetrics: boolean;
  /** Read at scrape time; undefined when no request-log plugin is loaded. */
  logStats: () => LogQueueStats | undefined;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'route' | 'method' | 'provider' | 'status'>;
  readonly #duration: Histogram<'route' | 'provider'>;
  readonly #upstream: Histogram<'provider'>;
  readonly #tokens: Counter<'provider' | 'model' | 'type'>;
  readonly #cost: Counter<'provider' | 'model'>;
  readonly #cache: Counter<'status'>;
  readonly #rateLimited: Counter<'source'>;
  readonly #circuitOpen: Counter<'provider'>;
  readonly #series = new Map<string, RequestSeries>();

  constructor(o: MetricsOptions) {
    const registers = [this.registry];
    const p = o.prefix;
    this.#requests = new Counter({
      name: `${p}requests_total`, help: 'Requests answered, by route pattern, method, serving provider and status',
      labelNames: ['route', 'method', 'provider', 'status'], registers,
    });
    this.#duration = new Histogram({
      name: `${p}request_duration_seconds`, help: 'Total time from request to the end of its answer (streams included)',
      labelNames: ['route', 'provider'], buckets: o.buckets, registers,
    });
    this.#upstream = new Histogram({
      name: `${p}upstream_duration_seconds`,
      help: 'Time a request spent waiting for providers (every try; a stream until its first chunk); from the request logs',
      labelNames: ['provider'], buckets: o.buckets, registers,
    });
    this.#tokens = new Counter({
      name: `${p}tokens_total`, help: 'Tokens reported in answers\' usage, by type (prompt, completion); from the request logs',
      labelNames: ['provider', 'model', 'type'], registers,
    });
    this.#cost = new Counter({
      name: `${p}cost_total`, help: 'Cost of answers from the pricing table, when one is loaded; from the request logs',
      labelNames: ['provider', 'model'], registers,
    });
    this.#cache = new Counter({
      name: `${p}cache_results_total`, help: 'Inference answers by x-gw-cache-status (HIT, SEMANTIC HIT, MISS, REFRESH, DISABLED)',
      labelNames: ['status'], registers,
    });
    this.#rateLimited = new Counter({
      name: `${p}rate_limited_total`,
      help: '429 answers: source="gateway" for the gateway\'s own rate and usage limits (code rate_limited), "provider" for providers\' 429s',
      labelNames: ['source'], registers,
    });
    this.#circuitOpen = new Counter({
      name: `${p}circuit_open_total`, help: 'Target calls refused because the target\'s circuit breaker was open',
      labelNames: ['provider'], registers,
    });
    queueMetrics(p, registers, o.logStats);
    if (o.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: p });
  }

  request(route: string, method: string, provider: string, status: number, seconds: number): void {
    const key = `${route}\n${method}\n${provider}\n${status}`;
    let series = this.#series.get(key);
    if (!series) {
      series = { count: this.#requests.labels(route, method, provider, String(status)), duration: this.#duration.labels(route, provider) };
      if (this.#series.size < MAX_CACHED_CHILDREN) this.#series.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }

  cacheResult(status: string): void {
    this.#cache.labels(status).inc();
  }

  rateLimited(source: 'gateway' | 'provider'): void {
    this.#rateLimited.labels(source).inc();
  }

  circuitOpen(provider: string): void {
    this.#circuitOpen.labels(provider).inc();
  }

  /** Fed by the request-log service once a batch of logs is built. */
  recorded(logs: readonly RecordedUsage[]): void {
    for (const log of logs) {
      const provider = log.provider ?? '';
      const model = log.model ?? '';
      if (log.upstreamMs !== null) this.#upstream.labels(provider).observe(log.upstreamMs / 1000);
      const usage = log.usage;
      if (usage) {
        if (usage.prompt_tokens) this.#tokens.labels(provider, model, 'prompt').inc(usage.prompt_tokens);
        if (usage.completion_tokens) this.#tokens.labels(provider, model, 'completion').inc(usage.completion_tokens);
      }
      if (log.cost !== null && log.cost > 0) this.#cost.labels(provider, model).inc(log.cost);
    }
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

/** Log queue figures, read from the request-log service when scraped. */
function queueMetrics(p: string, registers: Registry[], stats: () => LogQueueStats | undefined): void {
  new Gauge({
    name: `${p}log_queue_depth`, help: 'Request logs waiting to be written', registers,
    collect() {
      this.set(stats()?.queued ?? 0);
    },
  });
  new Gauge({
    name: `${p}log_queue_capacity`, help: 'Request logs the queue holds before it sheds the oldest', registers,
    collect() {
      this.set(stats()?.capacity ?? 0);
    },
  });
  monotonic(`${p}log_dropped_total`, 'Request logs shed because the queue was full', registers, () => stats()?.dropped);
  monotonic(`${p}log_written_total`, 'Request logs written to the store', registers, () => stats()?.written);
  monotonic(`${p}log_failed_total`, 'Request logs lost because their batch failed to write', registers, () => stats()?.failed);
}

/** A counter that mirrors a running total kept elsewhere. */
function monotonic(name: string, help: string, registers: Registry[], read: () => number | undefined): void {
  let seen = 0;
  new Counter({
    name, help, registers,
    collect() {
      const now = read() ?? seen;
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}
