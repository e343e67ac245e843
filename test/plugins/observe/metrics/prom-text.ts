/** A tiny parser of the Prometheus text format (0.0.4), enough to check scraped series in tests. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  types: Map<string, string>;
  /** The value of the one sample with this name and (at least) these labels; 0 when none. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every sample of `name` matching `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      types.set(name!, type!);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    const raw = m[3]!.toLowerCase();
    const value = raw === '+inf' ? Infinity : raw === '-inf' ? -Infinity : raw === 'nan' ? NaN : Number(raw);
    if (Number.isNaN(value) && raw !== 'nan') throw new Error(`bad sample value in: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    types,
    find,
    value: (name, labels) => {
      const found = find(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value ?? 0;
    },
  };
}
