/**
 * What a scenario's runs come to: medians over rounds and ratios to the baseline, per baseline.
 * Pure functions of the measured runs, so they are tested without servers.
 */
import type { LoadResult } from './load.js';
import type { SequentialStats } from './sequential.js';
import { median } from './stats.js';

export interface LoadRound {
  round: number;
  baseline: LoadResult;
  subject: LoadResult;
}

export interface LoadSummary {
  scenario: string;
  kind: 'load';
  baseline: string;
  connections: number;
  durationS: number;
  runs: LoadRound[];
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
  /** CPU µs per request, medians over rounds (Linux only); the ratio is the median of the rounds' subject/baseline. */
  cpu?: { baselineUs: number; subjectUs: number; ratio: number; baselineUpstreamUs: number; subjectUpstreamUs: number };
}

/** Sequential streams, `ttfb` scenarios: first body byte against the whole stream. */
export interface StreamSummary {
  scenario: string;
  kind: 'stream';
  baseline: string;
  chunkDelayMs: number;
  baselineStats: SequentialStats;
  subjectStats: SequentialStats;
  /** The gateway's first byte came after half of its whole stream time: it held the stream back. */
  buffered: boolean;
}

/** One connection, one request at a time, `latency` scenarios: what the gateway adds, µs. */
export interface LatencySummary {
  scenario: string;
  kind: 'latency';
  baseline: string;
  /** `answer`: until the whole answer; `first chunk`: until a stream's first body chunk. */
  metric: 'answer' | 'first chunk';
  baselineStats: SequentialStats;
  subjectStats: SequentialStats;
  /** Subject minus baseline at p50 and p99, µs. */
  addedP50: number;
  addedP99: number;
}

/** A `stages` scenario: the gateway's own median time per lifecycle stage (bench.stage-timings), µs. */
export interface StagesSummary {
  scenario: string;
  kind: 'stages';
  /** The side that reported them: the gateway, or a floor reference. */
  side: string;
  requests: number;
  stages: { stage: string; p50Us: number | null }[];
}

export type Summary = LoadSummary | StreamSummary | LatencySummary | StagesSummary;

export function summariseLoad(scenario: string, connections: number, durationS: number, runs: LoadRound[]): LoadSummary {
  const pick = (side: 'baseline' | 'subject', f: (r: LoadResult) => number) => median(runs.map((r) => f(r[side])));
  const failures = (side: 'baseline' | 'subject') => runs.reduce((n, r) => n + r[side].errors + r[side].timeouts + r[side].non2xx, 0);
  const withCpu = runs.filter((r) => r.baseline.cpu && r.subject.cpu);
  return {
    scenario,
    kind: 'load',
    baseline: runs[0]?.baseline.target ?? '-',
    connections,
    durationS,
    runs,
    baselineRps: pick('baseline', (r) => r.rps),
    subjectRps: pick('subject', (r) => r.rps),
    ratio: median(runs.map((r) => r.subject.rps / r.baseline.rps)),
    baselineP50: pick('baseline', (r) => r.p50),
    baselineP99: pick('baseline', (r) => r.p99),
    subjectP50: pick('subject', (r) => r.p50),
    subjectP99: pick('subject', (r) => r.p99),
    baselineFailures: failures('baseline'),
    subjectFailures: failures('subject'),
    ...(withCpu.length === 0 ? {} : {
      cpu: {
        baselineUs: median(withCpu.map((r) => r.baseline.cpu!.serverUs)),
        subjectUs: median(withCpu.map((r) => r.subject.cpu!.serverUs)),
        ratio: median(withCpu.map((r) => r.subject.cpu!.serverUs / r.baseline.cpu!.serverUs)),
        baselineUpstreamUs: median(withCpu.map((r) => r.baseline.cpu!.upstreamUs)),
        subjectUpstreamUs: median(withCpu.map((r) => r.subject.cpu!.upstreamUs)),
      },
    }),
  };
}

export function summariseLatency(scenario: string, stream: boolean, baseline: SequentialStats, subject: SequentialStats): LatencySummary {
  const [b50, b99, s50, s99] = stream
    ? [baseline.firstP50, baseline.firstP99, subject.firstP50, subject.firstP99]
    : [baseline.totalP50, baseline.totalP99, subject.totalP50, subject.totalP99];
  return {
    scenario,
    kind: 'latency',
    baseline: baseline.target,
    metric: stream ? 'first chunk' : 'answer',
    baselineStats: baseline,
    subjectStats: subject,
    addedP50: s50 - b50,
    addedP99: s99 - b99,
  };
}

export function summariseStreams(scenario: string, chunkDelayMs: number, baseline: SequentialStats, subject: SequentialStats): StreamSummary {
  return {
    scenario,
    kind: 'stream',
    baseline: baseline.target,
    chunkDelayMs,
    baselineStats: baseline,
    subjectStats: subject,
    buffered: subject.firstP50 > subject.totalP50 / 2,
  };
}
