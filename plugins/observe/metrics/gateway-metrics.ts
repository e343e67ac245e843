/**
 * prom-client enters the codebase here, imported on the first scrape (or at boot with process
 * metrics, which watch the process from the start): counting needs only series.ts. One Registry per
 * gateway (never prom-client's global one), so two gateways in one process keep separate series. Label values are route patterns
 * (not URLs), and every label a caller or a provider can steer (route, provider, status, model,
 * cache status) keeps a bounded set of values (bounded-label.ts); each metric also caps its series.
 * Metrics fed from the same event share their label sets, so they agree on which values read
 * `other`. Per-request series use the cheap counters of series.ts; prom-client formats everything
 * when scraped.
 */
import type { Metric, Registry } from 'prom-client';
import { lazy } from '../../../core/index.js';
import { BoundedLabel } from './bounded-label.js';
import { FastCounter, FastHistogram, type ScrapedMetric } from './series.js';
import type { RecorderStats as LogQueueStats, RecordedLog as RecordedUsage } from '../logs/contract.js';

/** Seconds; from a fast cached answer to a long generation. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export type { RecorderStats as LogQueueStats, RecordedLog as RecordedUsage } from '../logs/contract.js';

/** How many distinct values the labels keep (see bounded-label.ts). */
export interface LabelLimits {
  /** Model names always kept as `model` values. */
  models: readonly string[];
  /** Distinct `model` values kept besides `models`. */
  maxModels: number;
  /** Distinct values of each other steerable label (route, provider, status, cache status). */
  maxLabelValues: number;
  /** Series per metric; label sets beyond it count in one series whose labels all read `other`. */
  maxSeries: number;
}

export interface MetricsOptions {
  prefix: string;
  buckets: number[];
  processMetrics: boolean;
  limits: LabelLimits;
  /** Read at scrape time; undefined when no request-log plugin is loaded. */
  logStats: () => LogQueueStats | undefined;
}

const promClient = lazy(() => import('prom-client'));

export class GatewayMetrics {
  readonly #options: MetricsOptions;
  #registry?: Promise<Registry>;
  readonly #requests: FastCounter;
  readonly #duration: FastHistogram;
  readonly #upstream: FastHistogram;
  readonly #tokens: FastCounter;
  readonly #cost: FastCounter;
  readonly #cache: FastCounter;
  readonly #rateLimited: FastCounter;
  readonly #circuitOpen: FastCounter;
  /** Label values of each feed: answered requests, cache results, open circuits, request logs. */
  readonly #answered: { route: BoundedLabel; provider: BoundedLabel; status: BoundedLabel };
  readonly #cacheStatus: BoundedLabel;
  readonly #circuitProvider: BoundedLabel;
  readonly #logged: { provider: BoundedLabel; model: BoundedLabel };
  readonly #skippedChecks: FastCounter;
  readonly #subjectCalls: FastCounter;
  readonly #subjectDuration: FastHistogram;
  /** Label values of calls that are not model calls (an MCP server and tool, an agent and method). */
  readonly #called: { provider: BoundedLabel; called: BoundedLabel; status: BoundedLabel };

  constructor(o: MetricsOptions) {
    this.#options = o;
    const p = o.prefix;
    const { models, maxModels, maxLabelValues, maxSeries: n } = o.limits;
    const values = () => new BoundedLabel(maxLabelValues);
    this.#answered = { route: values(), provider: values(), status: values() };
    this.#cacheStatus = values();
    this.#circuitProvider = values();
    this.#logged = { provider: values(), model: new BoundedLabel(maxModels, models) };
    this.#called = { provider: values(), called: values(), status: values() };
    this.#requests = new FastCounter(`${p}requests_total`, 'Requests answered, by route pattern, method, serving provider and status', n);
    this.#duration = new FastHistogram(`${p}request_duration_seconds`, 'Total time from request to the end of its answer (streams included)', n, o.buckets);
    this.#upstream = new FastHistogram(
      `${p}upstream_duration_seconds`,
      'Time a request spent waiting for providers (every try; a stream until its first chunk); from the request logs', n, o.buckets,
    );
    this.#tokens = new FastCounter(`${p}tokens_total`, 'Provider tokens from answers\' usage, by type (prompt, completion), cache hits excluded; from the request logs', n);
    this.#cost = new FastCounter(`${p}cost_total`, 'Cost of answers from the pricing table, when one is loaded; from the request logs', n);
    this.#cache = new FastCounter(`${p}cache_results_total`, 'Inference answers by x-gw-cache-status (HIT, SEMANTIC HIT, MISS, REFRESH, DISABLED)', n);
    this.#rateLimited = new FastCounter(
      `${p}rate_limited_total`,
      '429 answers: source="gateway" for the gateway\'s own rate and usage limits (code rate_limited), "provider" for providers\' 429s', n,
    );
    this.#circuitOpen = new FastCounter(`${p}circuit_open_total`, 'Target calls refused because the target\'s circuit breaker was open', n);
    this.#skippedChecks = new FastCounter(
      `${p}limit_checks_skipped_total`,
      'Requests let through unchecked by a limit (check="rate_limits", "usage_limits") because its counters failed or did not answer in time', n,
    );
    this.#subjectCalls = new FastCounter(
      `${p}subject_calls_total`,
      'Calls that are not model calls (an MCP server\'s tool, an agent\'s method), by upstream (provider), what was called and status', n,
    );
    this.#subjectDuration = new FastHistogram(`${p}subject_call_duration_seconds`, 'Time to the end of the answer of calls that are not model calls, by upstream and what was called', n, o.buckets);
  }

  /** The registry every series is read from when scraped, made (and prom-client imported) on first use. */
  registry(): Promise<Registry> {
    this.#registry ??= promClient().then((prom) => {
      const o = this.#options;
      const registry = new prom.Registry();
      const scraped: ScrapedMetric[] = [
        this.#requests, this.#duration, this.#upstream, this.#tokens, this.#cost, this.#cache, this.#rateLimited,
        this.#circuitOpen, this.#skippedChecks, this.#subjectCalls, this.#subjectDuration,
      ];
      for (const metric of scraped) registry.registerMetric(metric as unknown as Metric);
      queueMetrics(prom, o.prefix, [registry], o.logStats);
      if (o.processMetrics) prom.collectDefaultMetrics({ register: registry, prefix: o.prefix });
      return registry;
    });
    return this.#registry;
  }

  request(routePattern: string, method: string, servingProvider: string, status: number, seconds: number): void {
    const labels = this.#answered;
    const route = labels.route.of(routePattern);
    const provider = labels.provider.of(servingProvider);
    const code = labels.status.of(String(status));
    this.#requests.inc(`${route}\n${method}\n${provider}\n${code}`, () => ({ route, method, provider, status: code }));
    this.#duration.observe(`${route}\n${provider}`, () => ({ route, provider }), seconds);
  }

  /** A request that named what it called (CallSubjectKey with a `model`): an MCP tool call, an agent method. */
  subjectCall(upstream: string, calledName: string, status: number, seconds: number): void {
    const labels = this.#called;
    const provider = labels.provider.of(upstream);
    const called = labels.called.of(calledName);
    const code = labels.status.of(String(status));
    this.#subjectCalls.inc(`${provider}\n${called}\n${code}`, () => ({ provider, called, status: code }));
    this.#subjectDuration.observe(`${provider}\n${called}`, () => ({ provider, called }), seconds);
  }

  cacheResult(cacheStatus: string): void {
    const status = this.#cacheStatus.of(cacheStatus);
    this.#cache.inc(status, () => ({ status }));
  }

  rateLimited(source: 'gateway' | 'provider'): void {
    this.#rateLimited.inc(source, () => ({ source }));
  }

  circuitOpen(targetProvider: string): void {
    const provider = this.#circuitProvider.of(targetProvider);
    this.#circuitOpen.inc(provider, () => ({ provider }));
  }

  limitCheckSkipped(check: string): void {
    this.#skippedChecks.inc(check, () => ({ check }));
  }

  /** Fed by the request-log service once a batch of logs is built. */
  recorded(logs: readonly RecordedUsage[]): void {
    const labels = this.#logged;
    for (const log of logs) {
      const provider = labels.provider.of(log.provider ?? '');
      const model = labels.model.of(log.model ?? '');
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

  async metrics(): Promise<string> {
    return (await this.registry()).metrics();
  }
}

/** Log queue figures, read from the request-log service when scraped. */
type PromClient = typeof import('prom-client');

function queueMetrics(prom: PromClient, p: string, registers: Registry[], stats: () => LogQueueStats | undefined): void {
  new prom.Gauge({
    name: `${p}log_queue_depth`, help: 'Request logs waiting to be written', registers,
    collect() {
      this.set(stats()?.queued ?? 0);
    },
  });
  new prom.Gauge({
    name: `${p}log_queue_capacity`, help: 'Request logs the queue holds before it sheds the oldest', registers,
    collect() {
      this.set(stats()?.capacity ?? 0);
    },
  });
  monotonic(prom, `${p}log_dropped_total`, 'Request logs shed because the queue was full', registers, () => stats()?.dropped);
  monotonic(prom, `${p}log_written_total`, 'Request logs written to the store', registers, () => stats()?.written);
  monotonic(prom, `${p}log_failed_total`, 'Request logs lost because their batch failed to write', registers, () => stats()?.failed);
}

/** A counter that mirrors a running total kept elsewhere. */
function monotonic(prom: PromClient, name: string, help: string, registers: Registry[], read: () => number | undefined): void {
  let seen = 0;
  new prom.Counter({
    name, help, registers,
    collect() {
      const now = read() ?? seen;
      if (now > seen) this.inc(now - seen);
      seen = Math.max(seen, now);
    },
  });
}
