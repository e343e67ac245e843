/**
 * Cold start: spawn `node dist/host/main.js` with a fresh data directory and time until `GET /health`
 * answers 200. N runs, one at a time; prints median, min and max per preset, of the wall time and
 * of the CPU time the gateway process used until then (Linux: /proc; steadier on a busy machine).
 *
 *   node dist/test/bench/cold-start.js [--runs 10] [--preset default,minimal] [--node-arg=--enable-source-maps]
 *                                      [--keep-data]   (re-use one data directory: a restart, not a first boot)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './processes.js';

const MAIN = resolve(fileURLToPath(new URL('../../host/main.js', import.meta.url)));
const POLL_MS = 5;
const GIVE_UP_MS = 20_000;

interface Options { runs: number; presets: string[]; nodeArgs: string[]; keepData: boolean }

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 10, presets: ['default', 'minimal'], nodeArgs: [], keepData: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--preset') options.presets = argv[++i]!.split(',');
    else if (arg.startsWith('--node-arg=')) options.nodeArgs.push(arg.slice('--node-arg='.length));
    else if (arg === '--keep-data') options.keepData = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs takes a positive integer');
  return options;
}

function healthStatus(port: number): Promise<number> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.once('error', () => done(0));
    req.end();
  });
}

/** CPU milliseconds (user + system) a process has used, from /proc; NaN where there is none. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

interface Start { wallMs: number; cpuMs: number }

/** From spawn until /health answers 200: wall time, and the gateway's CPU time. */
async function oneStart(preset: string, dataDir: string, nodeArgs: string[]): Promise<Start> {
  const port = await freePort();
  const gatewayFile = join(dataDir, '..', `${preset}.gateway.json`);
  writeFileSync(gatewayFile, JSON.stringify({ preset }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    GW_DATA_DIR: dataDir,
    GW_CONFIG: gatewayFile,
    GW_BOOTSTRAP_API_KEY: 'gw-cold-start-bench-key-0123456789',
    GW_LOG_LEVEL: 'warn',
  };
  delete env['GW_DATABASE_URL'];
  delete env['GW_REDIS_URL'];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, MAIN], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`gateway exited with code ${child.exitCode}`);
      if (await healthStatus(port) === 200) return { wallMs: performance.now() - started, cpuMs: cpuMs(child.pid) };
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no 200 from /health within ${GIVE_UP_MS} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return `median ${median.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}`;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const root = mkdtempSync(join(tmpdir(), 'gw-cold-start-'));
  try {
    const times = new Map<string, Start[]>(options.presets.map((p) => [p, []]));
    // Presets alternate run by run, so drift on a shared machine touches each alike.
    for (let run = 0; run < options.runs; run++) {
      for (const preset of options.presets) {
        const dataDir = join(root, options.keepData ? preset : `${preset}-${run}`);
        times.get(preset)!.push(await oneStart(preset, dataDir, options.nodeArgs));
      }
    }
    for (const [preset, t] of times) {
      process.stdout.write(`${preset.padEnd(8)} wall ${summary(t.map((s) => s.wallMs))}; cpu ${summary(t.map((s) => s.cpuMs))} (${t.length} runs)\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  process.stderr.write(`cold-start: ${e.message}\n`);
  process.exit(1);
});
