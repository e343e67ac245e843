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
import type { LatencySummary, LoadSummary, StagesSummary, StreamSummary, Summary } from './summaries.js';

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toString() : '-');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');

export function printRun(scenario: string, round: number | 'warm-up', r: LoadResult): void {
  const failures = r.errors + r.timeouts + r.non2xx;
  console.log(
    `  ${scenario} ${round === 'warm-up' ? 'warm-up' : `round ${round}`}  ${r.target.padEnd(11)} ${f0(r.rps).padStart(7)} req/s  p50 ${f1(r.p50)} ms  p99 ${f1(r.p99)} ms` +
      (r.cpu ? `  cpu ${f1(r.cpu.serverUs)} µs/req (after the load ${f1(r.cpu.tailUs)}; upstream ${f1(r.cpu.upstreamUs)})` : '') +
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
  const latency = summaries.filter((s): s is LatencySummary => s.kind === 'latency');
  const stages = summaries.filter((s): s is StagesSummary => s.kind === 'stages');
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
  const withCpu = load.filter((s) => s.cpu);
  if (withCpu.length > 0) {
    console.log('\ncpu per request (µs, median of rounds; utime + stime of each process tree / requests served; upstream = during that side\'s runs)');
    console.log(table([
      ['scenario', 'baseline', 'base µs/req', 'gw µs/req', 'gw/base', 'upstream b/gw'],
      ...withCpu.map((s) => [s.scenario, s.baseline, f1(s.cpu!.baselineUs), f1(s.cpu!.subjectUs), f2(s.cpu!.ratio),
        `${f1(s.cpu!.baselineUpstreamUs)}/${f1(s.cpu!.subjectUpstreamUs)}`]),
    ]));
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
    const ms = (us: number) => f1(us / 1000);
    console.log('\nstreams (sequential; ms; TTFB = first body byte)');
    console.log(
      table([
        ['scenario', 'baseline', 'delay', 'n', 'base TTFB p50/p99', 'gw TTFB p50/p99', 'base total p50', 'gw total p50', 'buffered'],
        ...streams.map((s) => [
          s.scenario,
          s.baseline,
          String(s.chunkDelayMs),
          String(s.subjectStats.samples),
          `${ms(s.baselineStats.firstP50)}/${ms(s.baselineStats.firstP99)}`,
          `${ms(s.subjectStats.firstP50)}/${ms(s.subjectStats.firstP99)}`,
          ms(s.baselineStats.totalP50),
          ms(s.subjectStats.totalP50),
          s.buffered ? 'YES' : 'no',
        ]),
      ]),
    );
  }
  if (latency.length > 0) {
    const p = (s: LatencySummary, side: 'baselineStats' | 'subjectStats', q: 50 | 99) =>
      s.metric === 'answer' ? s[side][q === 50 ? 'totalP50' : 'totalP99'] : s[side][q === 50 ? 'firstP50' : 'firstP99'];
    console.log('\nlatency at one connection (µs; sequential, sides alternating request by request; added = gateway - baseline)');
    console.log(
      table([
        ['scenario', 'until', 'baseline', 'n', 'base p50/p99', 'gw p50/p99', 'added p50', 'added p99'],
        ...latency.map((s) => [
          s.scenario,
          s.metric,
          s.baseline,
          String(s.subjectStats.samples),
          `${f0(p(s, 'baselineStats', 50))}/${f0(p(s, 'baselineStats', 99))}`,
          `${f0(p(s, 'subjectStats', 50))}/${f0(p(s, 'subjectStats', 99))}`,
          f0(s.addedP50),
          f0(s.addedP99),
        ]),
      ]),
    );
  }
  for (const s of stages) {
    const total = s.stages.reduce((n, x) => n + (x.p50Us ?? 0), 0);
    console.log(`\n${s.scenario}: where ${s.side}'s time goes, by its own clock (median µs of each stage over ${s.requests} requests)`);
    console.log(table([
      ['stage', 'p50 µs'],
      ...s.stages.map((x) => [x.stage, x.p50Us === null ? '-' : f1(x.p50Us)]),
      ['sum of the medians', f1(total)],
    ]));
  }
}

export function writeJson(dir: string, options: unknown, summaries: Summary[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length, cpuModel: cpus()[0]?.model };
  writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine, options, summaries }, null, 2) + '\n');
  return file;
}
