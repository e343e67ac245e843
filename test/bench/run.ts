/**
 * Bench entry point: `npm run bench -- [--scenario chat,stream] [--rounds 3] [--duration 5]
 * [--connections N] [--warmup 1] [--gateway path/to/main.js] [--pin] [--gc] [--list]
 * [--gateway-env KEY=VALUE ...] [--proxy-processes N] [--baseline undici,http,floor,floor-logged|both] [--requests N]
 * [--compare other/dist/host/main.js]`.
 * Servers run as child processes; the load generator runs here (the machine has 2 cores).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from './load.js';
import { killChildrenOnExit, pinSelf, stopAll } from './processes.js';
import { printRun, printSummaries, writeJson } from './report.js';
import { findScenario, scenarios, type Scenario } from './scenarios.js';
import { measureSequential } from './sequential.js';
import type { StageTimes } from './stage-timings.js';
import { summariseLatency, summariseLoad, summariseStreams, type LoadRound, type Summary } from './summaries.js';
import { probe, startStack, REFERENCES, type Reference, type Stack, type Target } from './targets.js';

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
    list: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
    gc: { type: 'boolean', default: false },
    'gateway-env': { type: 'string', multiple: true, default: [] },
    'proxy-processes': { type: 'string', default: '1' },
    baseline: { type: 'string', default: 'undici' },
    requests: { type: 'string' },
    compare: { type: 'string' },
  },
});

/**
 * `--baseline`: the references a `proxy` baseline runs, comma-separated, each round running them in
 * this order and then the gateway; `both` is undici,http.
 */
function referencesOf(list: string): Reference[] {
  const names = list === 'both' ? ['undici', 'http'] : list.split(',');
  for (const name of names) {
    if (!REFERENCES.includes(name as Reference)) throw new Error(`--baseline takes a comma-separated list of ${REFERENCES.join(', ')} (or both), got "${name}"`);
  }
  return names as Reference[];
}
const references = referencesOf(values.baseline);

/** `--gateway-env KEY=VALUE` (repeatable): the environment added to every gateway the bench starts. */
function gatewayEnvOf(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`--gateway-env needs KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

const proxyProcesses = Number(values['proxy-processes']);
if (!Number.isInteger(proxyProcesses) || proxyProcesses < 1) throw new Error(`--proxy-processes must be a positive integer, got "${values['proxy-processes']}"`);

const options = {
  scenarios: values.scenario.split(',').map((s) => s.trim()).filter(Boolean),
  rounds: Number(values.rounds),
  durationS: Number(values.duration),
  warmupS: Number(values.warmup),
  connections: values.connections === undefined ? undefined : Number(values.connections),
  gateway: resolve(values.gateway),
  pin: values.pin,
  gc: values.gc,
  gatewayEnv: gatewayEnvOf(values['gateway-env']),
  proxyProcesses,
  references,
  /** `--compare`: another build's gateway, one more baseline of every scenario (labelled `compared`). */
  compare: values.compare === undefined ? undefined : resolve(values.compare),
  /** Sequential scenarios: requests per side, over the scenario's own count. */
  requests: values.requests === undefined ? undefined : Number(values.requests),
};
if (options.requests !== undefined && !(Number.isInteger(options.requests) && options.requests > 0)) {
  throw new Error(`--requests must be a positive integer, got "${values.requests}"`);
}

/** Rounds of B S (or B1 B2 S with two baselines), each baseline's runs summarised against the same subject runs. */
async function loadScenario(s: Scenario, stack: Stack): Promise<Summary[]> {
  const conns = options.connections ?? s.connections;
  const load = (t: Stack['subject']) => runLoad(t, conns, options.durationS, stack.upstreamPid);
  if (options.warmupS > 0) {
    for (const t of [...stack.baselines, stack.subject]) printRun(s.name, 'warm-up', await runLoad(t, conns, options.warmupS, stack.upstreamPid));
  }
  const rounds: LoadRound[][] = stack.baselines.map(() => []);
  for (let round = 1; round <= options.rounds; round++) {
    const baselines: LoadResult[] = [];
    for (const b of stack.baselines) {
      baselines.push(await load(b));
      printRun(s.name, round, baselines.at(-1)!);
    }
    const subject = await load(stack.subject);
    printRun(s.name, round, subject);
    baselines.forEach((baseline, k) => rounds[k]!.push({ round, baseline, subject }));
  }
  return rounds.map((runs) => summariseLoad(s.name, conns, options.durationS, runs));
}

/** Sequential requests, one connection per side: `ttfb` (streams held back?) or `latency` (µs added). */
async function sequentialScenario(s: Scenario, stack: Stack): Promise<Summary[]> {
  const latency = s.measure === 'latency';
  const n = options.requests ?? s.requests ?? (latency ? 5000 : 50);
  // The JIT needs far more than a few requests before µs figures settle.
  const warmup = latency ? Math.min(1000, Math.ceil(n / 5)) : 3;
  console.log(`  ${s.name}: ${n} sequential requests each through ${[...stack.baselines, stack.subject].map((t) => t.label).join(', ')} (after ${warmup} warm-up)...`);
  const stats = await measureSequential([...stack.baselines, stack.subject], n, warmup);
  const subject = stats.at(-1)!;
  const summaries: Summary[] = stats.slice(0, -1).map((baseline) =>
    latency ? summariseLatency(s.name, s.stream === true, baseline, subject) : summariseStreams(s.name, s.upstreamChunkDelayMs ?? 0, baseline, subject));
  for (const t of [...stack.baselines, stack.subject]) {
    if (t.stages) summaries.push({ scenario: s.name, kind: 'stages', side: t.label, ...(await stageTimes(t)) });
  }
  return summaries;
}

/** A side's stage medians since its start (warm-up included): the gateway's bench.stage-timings plugin, the floor's own. */
async function stageTimes(t: Target): Promise<StageTimes> {
  const res = await fetch(`${t.origin}/bench/stages`);
  if (!res.ok) throw new Error(`GET /bench/stages of ${t.label} answered ${res.status}`);
  return (await res.json()) as StageTimes;
}

async function main(): Promise<void> {
  killChildrenOnExit();
  if (values.list) {
    for (const s of scenarios) console.log(`${s.name.padEnd(22)} vs ${s.baseline.padEnd(14)} ${s.description}`);
    return;
  }
  const selected = options.scenarios.map(findScenario);
  if (!existsSync(options.gateway)) {
    throw new Error(`gateway entry point not found: ${options.gateway} (build the host with \`npm run build\`, or pass --gateway)`);
  }
  if (options.compare !== undefined && !existsSync(options.compare)) throw new Error(`--compare: gateway entry point not found: ${options.compare}`);
  if (options.pin) {
    if (availableParallelism() < 2) throw new Error('--pin needs two CPUs or more');
    pinSelf(0);
  }
  const workDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  console.log(`bench: ${selected.map((s) => s.name).join(', ')}; rounds ${options.rounds} x ${options.durationS} s; work dir ${workDir}`);
  const summaries: Summary[] = [];
  for (const s of selected) {
    console.log(`\n${s.name}: ${s.description} (baseline: ${s.baseline})`);
    const stack = await startStack(s, { benchDir, gatewayMain: options.gateway, workDir, pin: options.pin ? { upstream: 0, server: 1 } : undefined, gc: options.gc,
      gatewayEnv: options.gatewayEnv, proxyProcesses: options.proxyProcesses, references: options.references, compareMain: options.compare });
    try {
      for (const t of [...stack.baselines, stack.subject]) await probe(t);
      summaries.push(...((s.measure ?? 'load') === 'load' ? await loadScenario(s, stack) : await sequentialScenario(s, stack)));
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
