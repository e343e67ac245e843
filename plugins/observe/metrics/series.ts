/**
 * Counters and histograms for the per-request path. prom-client's own `inc`/`observe` validate and
 * hash the label set on every call; these keep one entry per label set, found by a key the caller
 * builds, and are turned into prom-client's metric shape only when scraped. The registry formats
 * any registered object with `name`, `help`, `type` and `get()`, as it does its own metrics.
 * Each metric holds at most `maxSeries` series: label sets beyond it are counted together in one
 * series whose labels all read `other`, a last bound behind the bounded label values.
 */
import { OTHER } from './bounded-label.js';

type Labels = Record<string, string>;

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** The key of the series that takes every label set beyond the cap (no caller's key starts with NUL). */
const OVERFLOW_KEY = '\0overflow';

/** What prom-client's registry reads of a metric when scraped (`registry.registerMetric`). */
export abstract class ScrapedMetric {
  readonly aggregator = 'sum';
  abstract readonly type: 'counter' | 'histogram';

  constructor(readonly name: string, readonly help: string, readonly maxSeries: number) {}

  abstract values(): MetricValue[];

  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.values() };
  }
}

export class FastCounter extends ScrapedMetric {
  readonly type = 'counter';
  readonly #series = new Map<string, { labels: Labels; value: number }>();

  /** Adds `by` to the series `key`; `labels` is called only the first time the key is seen. */
  inc(key: string, labels: () => Labels, by = 1): void {
    const series = this.#series.get(key);
    if (series) series.value += by;
    else if (this.#series.size < this.maxSeries) this.#series.set(key, { labels: labels(), value: by });
    else this.#overflow(labels).value += by;
  }

  #overflow(labels: () => Labels): { labels: Labels; value: number } {
    let series = this.#series.get(OVERFLOW_KEY);
    if (!series) this.#series.set(OVERFLOW_KEY, (series = { labels: allOther(labels()), value: 0 }));
    return series;
  }

  values(): MetricValue[] {
    return [...this.#series.values()].map((s) => ({ labels: s.labels, value: s.value }));
  }
}

interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket (not cumulative); the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class FastHistogram extends ScrapedMetric {
  readonly type = 'histogram';
  readonly #series = new Map<string, HistogramSeries>();

  constructor(name: string, help: string, maxSeries: number, readonly bounds: readonly number[]) {
    super(name, help, maxSeries);
  }

  observe(key: string, labels: () => Labels, value: number): void {
    let series = this.#series.get(key);
    if (!series) {
      const full = this.#series.size >= this.maxSeries;
      if (full) series = this.#series.get(OVERFLOW_KEY);
      if (!series) {
        series = { labels: full ? allOther(labels()) : labels(), counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
        this.#series.set(full ? OVERFLOW_KEY : key, series);
      }
    }
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.counts[i]!++;
    series.sum += value;
    series.count++;
  }

  values(): MetricValue[] {
    const out: MetricValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += s.counts[i]!;
        out.push({ labels: { ...s.labels, le: this.bounds[i]! }, value: cumulative, metricName: bucket });
      }
      out.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: bucket });
      out.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      out.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return out;
  }
}

function allOther(labels: Labels): Labels {
  const out: Labels = {};
  for (const name in labels) out[name] = OTHER;
  return out;
}
