/**
 * Bench entry point: `npm run bench -- [--scenario chat,stream] [--rounds 3] [--duration 5]
 * [--connections N] [--warmup 1] [--gateway path/to/main.js] [--gateway-env KEY=VALUE ...] [--pin] [--gc] [--list]`.
 * Servers run as child processes; the load generator runs here (the machine has 2 cores).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './load.js';
import { killChildrenOnExit, pinSelf, stopAll } from './processes.js';
import { printRun, printSummaries, writeJson, type LoadSummary, type StreamSummary, type Summary } from './report.js';
import { findScenario, scenarios, type Scenario } from './scenarios.js';
import { median } from './stats.js';
import { probe, startStack, type Stack } from './targets.js';
import { measureStreams } from './ttfb.js';

const benchDir = dirname(fileURLToPath(import.meta.url)); // dist/test/bench
const root = resolve(benchDir, '../../..');

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'chat' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string' },
    warmup: { type: 'string', default: '1' },
    gateway: { type: 'string', default: join(root, 'dist/host/main.js') },
    'gateway-env': { type: 'string', multiple: true, default: [] },
    list: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    gc: { type: 'boolean', default: false },
  },
});

const options = {
  scenarios: values.scenario.split(',').map((s) => s.trim()).filter(Boolean),
  rounds: Number(values.rounds),
  durationS: Number(values.duration),
  warmupS: Number(values.warmup),
  connections: values.connections === undefined ? undefined : Number(values.connections),
  gateway: resolve(values.gateway),
  gatewayEnv: parseGatewayEnv(values['gateway-env']),
  pin: values.pin,
  gc: values.gc,
};

/** `--gateway-env KEY=VALUE`, repeatable: added to every gateway's environment (e.g. GW_DATABASE_URL). */
function parseGatewayEnv(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--gateway-env takes KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

async function loadScenario(s: Scenario, stack: Stack): Promise<LoadSummary> {
  const conns = options.connections ?? s.connections;
  if (options.warmupS > 0) {
    printRun(s.name, 'warm-up', await runLoad(stack.baseline, conns, options.warmupS));
    printRun(s.name, 'warm-up', await runLoad(stack.subject, conns, options.warmupS));
  }
  const runs: LoadSummary['runs'] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const baseline = await runLoad(stack.baseline, conns, options.durationS);
    printRun(s.name, round, baseline);
    const subject = await runLoad(stack.subject, conns, options.durationS);
    printRun(s.name, round, subject);
    runs.push({ round, baseline, subject });
  }
  const pick = (side: 'baseline' | 'subject', f: (r: LoadResult) => number) => median(runs.map((r) => f(r[side])));
  const failures = (side: 'baseline' | 'subject') => runs.reduce((n, r) => n + r[side].errors + r[side].timeouts + r[side].non2xx, 0);
  return {
    scenario: s.name,
    kind: 'load',
    baseline: stack.baseline.label,
    connections: conns,
    durationS: options.durationS,
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
  };
}

async function streamScenario(s: Scenario, stack: Stack): Promise<StreamSummary> {
  const n = s.requests ?? 50;
  console.log(`  ${s.name}: ${n} sequential streams each through ${stack.baseline.label} and ${stack.subject.label}...`);
  const { baseline, subject } = await measureStreams(stack.baseline, stack.subject, n);
  return {
    scenario: s.name,
    kind: 'stream',
    baseline: stack.baseline.label,
    chunkDelayMs: s.upstreamChunkDelayMs ?? 0,
    baselineStats: baseline,
    subjectStats: subject,
    buffered: subject.ttfbMedian > subject.totalMedian / 2,
  };
}

async function main(): Promise<void> {
  killChildrenOnExit();
  if (values.list) {
    for (const s of scenarios) console.log(`${s.name.padEnd(16)} vs ${s.baseline.padEnd(10)} ${s.description}`);
    return;
  }
  const selected = options.scenarios.map(findScenario);
  if (!existsSync(options.gateway)) {
    throw new Error(`gateway entry point not found: ${options.gateway} (build the host with \`npm run build\`, or pass --gateway)`);
  }
  if (options.pin) {
    if (availableParallelism() < 2) throw new Error('--pin needs two CPUs or more');
    pinSelf(0);
  }
  const workDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  console.log(`bench: ${selected.map((s) => s.name).join(', ')}; rounds ${options.rounds} x ${options.durationS} s; work dir ${workDir}`);
  const summaries: Summary[] = [];
  for (const s of selected) {
    console.log(`\n${s.name}: ${s.description} (baseline: ${s.baseline})`);
    const stack = await startStack(s, { benchDir, gatewayMain: options.gateway, gatewayEnv: options.gatewayEnv, workDir, pin: options.pin ? { upstream: 0, server: 1 } : undefined, gc: options.gc });
    try {
      await probe(stack.baseline);
      await probe(stack.subject);
      summaries.push(s.stream ? await streamScenario(s, stack) : await loadScenario(s, stack));
    } finally {
      await stack.stop();
    }
  }
  printSummaries(summaries);
  const file = writeJson(join(root, '.bench'), options, summaries);
  console.log(`\nresults: ${file}`);
  rmSync(workDir, { recursive: true, force: true }); // kept on failure, for the logs
}

main().catch(async (err: unknown) => {
  console.error(`\nbench failed: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll();
  process.exit(1);
});
