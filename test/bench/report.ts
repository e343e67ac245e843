/**
 * Bench output: one line per run while it goes, a compact table at the end, and the whole
 * result as JSON under .bench/ for comparing commits.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { GcStats } from './gc-stats.js';
import type { LoadResult } from './load.js';
import { median } from './stats.js';
import type { StreamStats } from './ttfb.js';

export interface LoadSummary {
  scenario: string;
  kind: 'load';
  baseline: string;
  connections: number;
  durationS: number;
  runs: { round: number; baseline: LoadResult; subject: LoadResult }[];
  /** Medians over the rounds. */
  baselineRps: number;
  subjectRps: number;
  /** Median over rounds of subject rps / baseline rps of the same round. */
  ratio: number;
  baselineP50: number;
  baselineP99: number;
  subjectP50: number;
  subjectP99: number;
  /** Errors + time-outs + non-2xx answers, all rounds. */
  baselineFailures: number;
  subjectFailures: number;
}

export interface StreamSummary {
  scenario: string;
  kind: 'stream';
  baseline: string;
  chunkDelayMs: number;
  baselineStats: StreamStats;
  subjectStats: StreamStats;
  /** The gateway's first byte came after half of its whole stream time: it held the stream back. */
  buffered: boolean;
}

export type Summary = LoadSummary | StreamSummary;

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toString() : '-');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');

export function printRun(scenario: string, round: number | 'warm-up', r: LoadResult): void {
  const failures = r.errors + r.timeouts + r.non2xx;
  console.log(
    `  ${scenario} ${round === 'warm-up' ? 'warm-up' : `round ${round}`}  ${r.target.padEnd(8)} ${f0(r.rps).padStart(7)} req/s  p50 ${f1(r.p50)} ms  p99 ${f1(r.p99)} ms` +
      (failures > 0 ? `  FAILURES ${failures} (errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx})` : '') +
      (r.gc ? `  gc: ${f0(r.gc.allocated)} B alloc, ${f0(r.gc.survived)} B survived, ${f0(r.gc.promoted)} B promoted, ${f1(r.gc.pauseUs)} µs pause /req` : ''),
  );
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function printSummaries(summaries: Summary[]): void {
  const load = summaries.filter((s): s is LoadSummary => s.kind === 'load');
  const streams = summaries.filter((s): s is StreamSummary => s.kind === 'stream');
  if (load.length > 0) {
    console.log('\nthroughput (median of rounds; latency = median of autocannon p50/p99, ms)');
    console.log(
      table([
        ['scenario', 'baseline', 'conns', 'base req/s', 'gw req/s', 'ratio', 'base p50/p99', 'gw p50/p99', 'failures b/gw'],
        ...load.map((s) => [
          s.scenario,
          s.baseline,
          String(s.connections),
          f0(s.baselineRps),
          f0(s.subjectRps),
          f2(s.ratio),
          `${f1(s.baselineP50)}/${f1(s.baselineP99)}`,
          `${f1(s.subjectP50)}/${f1(s.subjectP99)}`,
          `${s.baselineFailures}/${s.subjectFailures}`,
        ]),
      ]),
    );
  }
  const withGc = load.filter((s) => s.runs.some((r) => r.subject.gc && r.baseline.gc));
  if (withGc.length > 0) {
    const gcMedian = (s: LoadSummary, side: 'baseline' | 'subject', f: (g: GcStats) => number) => median(s.runs.map((r) => f(r[side].gc!)));
    const sideRow = (s: LoadSummary, side: 'baseline' | 'subject', label: string) => [
      s.scenario, label, f0(gcMedian(s, side, (g) => g.allocated)), f0(gcMedian(s, side, (g) => g.survived)),
      f0(gcMedian(s, side, (g) => g.promoted)), f1(gcMedian(s, side, (g) => g.pauseUs)),
    ];
    console.log('\ngc per request (median of rounds; bytes; pause = main-thread GC time, µs)');
    console.log(table([
      ['scenario', 'side', 'allocated', 'survived', 'promoted', 'pause'],
      ...withGc.flatMap((s) => [sideRow(s, 'baseline', s.baseline), sideRow(s, 'subject', 'gateway')]),
    ]));
  }
  if (streams.length > 0) {
    console.log('\nstreams (sequential; ms; TTFB = first body byte)');
    console.log(
      table([
        ['scenario', 'baseline', 'delay', 'n', 'base TTFB p50/p99', 'gw TTFB p50/p99', 'base total p50', 'gw total p50', 'buffered'],
        ...streams.map((s) => [
          s.scenario,
          s.baseline,
          String(s.chunkDelayMs),
          String(s.subjectStats.samples),
          `${f1(s.baselineStats.ttfbMedian)}/${f1(s.baselineStats.ttfbP99)}`,
          `${f1(s.subjectStats.ttfbMedian)}/${f1(s.subjectStats.ttfbP99)}`,
          f1(s.baselineStats.totalMedian),
          f1(s.subjectStats.totalMedian),
          s.buffered ? 'YES' : 'no',
        ]),
      ]),
    );
  }
}

export function writeJson(dir: string, options: unknown, summaries: Summary[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length, cpuModel: cpus()[0]?.model };
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine, options, summaries }, null, 2) + '\n');
  return file;
}
