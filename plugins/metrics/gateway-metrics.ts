/**
 * prom-client enters the codebase here. One Registry per gateway (never prom-client's global
 * one), so two gateways in one process keep separate series. Label values are bounded: route
 * patterns (not URLs), provider ids, status codes, models, cache statuses. Per-request series
 * use the cheap counters of series.ts; prom-client formats everything when scraped.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { FastCounter, FastHistogram } from './series.js';

/** Seconds; from a fast cached answer to a long generation. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

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
  cacheStatus: string | null;
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
  readonly #requests: FastCounter;
  readonly #duration: FastHistogram;
  readonly #upstream: FastHistogram;
  readonly #tokens: FastCounter;
  readonly #cost: FastCounter;
  readonly #cache: FastCounter;
  readonly #rateLimited: FastCounter;
  readonly #circuitOpen: FastCounter;
  readonly #skippedChecks: FastCounter;

  constructor(o: MetricsOptions) {
    const r = this.registry;
    const p = o.prefix;
    this.#requests = new FastCounter(`${p}requests_total`, 'Requests answered, by route pattern, method, serving provider and status', r);
    this.#duration = new FastHistogram(`${p}request_duration_seconds`, 'Total time from request to the end of its answer (streams included)', r, o.buckets);
    this.#upstream = new FastHistogram(
      `${p}upstream_duration_seconds`,
      'Time a request spent waiting for providers (every try; a stream until its first chunk); from the request logs', r, o.buckets,
    );
    this.#tokens = new FastCounter(`${p}tokens_total`, 'Provider tokens from answers\' usage, by type (prompt, completion), cache hits excluded; from the request logs', r);
    this.#cost = new FastCounter(`${p}cost_total`, 'Cost of answers from the pricing table, when one is loaded; from the request logs', r);
    this.#cache = new FastCounter(`${p}cache_results_total`, 'Inference answers by x-gw-cache-status (HIT, SEMANTIC HIT, MISS, REFRESH, DISABLED)', r);
    this.#rateLimited = new FastCounter(
      `${p}rate_limited_total`,
      '429 answers: source="gateway" for the gateway\'s own rate and usage limits (code rate_limited), "provider" for providers\' 429s', r,
    );
    this.#circuitOpen = new FastCounter(`${p}circuit_open_total`, 'Target calls refused because the target\'s circuit breaker was open', r);
    this.#skippedChecks = new FastCounter(
      `${p}limit_checks_skipped_total`,
      'Requests let through unchecked by a limit (check="rate_limits", "usage_limits") because its counters failed or did not answer in time', r,
    );
    queueMetrics(p, [r], o.logStats);
    if (o.processMetrics) collectDefaultMetrics({ register: r, prefix: p });
  }

  request(route: string, method: string, provider: string, status: number, seconds: number): void {
    this.#requests.inc(`${route}\n${method}\n${provider}\n${status}`, () => ({ route, method, provider, status: String(status) }));
    this.#duration.observe(`${route}\n${provider}`, () => ({ route, provider }), seconds);
  }

  cacheResult(status: string): void {
    this.#cache.inc(status, () => ({ status }));
  }

  rateLimited(source: 'gateway' | 'provider'): void {
    this.#rateLimited.inc(source, () => ({ source }));
  }

  circuitOpen(provider: string): void {
    this.#circuitOpen.inc(provider, () => ({ provider }));
  }

  limitCheckSkipped(check: string): void {
    this.#skippedChecks.inc(check, () => ({ check }));
  }

  /** Fed by the request-log service once a batch of logs is built. */
  recorded(logs: readonly RecordedUsage[]): void {
    for (const log of logs) {
      const provider = log.provider ?? '';
      const model = log.model ?? '';
      if (log.upstreamMs !== null) this.#upstream.observe(provider, () => ({ provider }), log.upstreamMs / 1000);
      const usage = log.usage;
      // A cache hit spent no provider tokens (its answer repeats the cached usage).
      if (usage && log.cacheStatus !== 'HIT' && log.cacheStatus !== 'SEMANTIC HIT') {
        const key = `${provider}\n${model}`;
        if (usage.prompt_tokens) this.#tokens.inc(`${key}\nprompt`, () => ({ provider, model, type: 'prompt' }), usage.prompt_tokens);
        if (usage.completion_tokens) this.#tokens.inc(`${key}\ncompletion`, () => ({ provider, model, type: 'completion' }), usage.completion_tokens);
      }
      if (log.cost !== null && log.cost > 0) this.#cost.inc(`${provider}\n${model}`, () => ({ provider, model }), log.cost);
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
