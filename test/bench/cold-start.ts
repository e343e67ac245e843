/**
 * Cold start (issue 24): process spawn to first answer, N times per case, cases taking turns so
 * drift on the machine hits them alike. Prints median, min and max per case.
 *
 *   node dist/test/bench/cold-start.js [--runs 10] [--gateway dist/bundle/host/main.js]
 *
 * Cases: bare node printing a listening line (node's own start, the floor of any node server);
 * the bare undici proxy; the gateway (by default the bundled build that npm start and the image
 * run) on the default preset with a fresh GW_DATA_DIR (first start: schema, bootstrap key), on the
 * data dir of the previous start (a restart), and on the minimal preset; and the unbundled
 * dist/host/main.js on the default preset. Each: spawn to the listening line, the CPU time the process had used by then (steadier
 * than wall time on a busy machine), and for the gateway spawn to the first 200 of /health.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuTimesUs } from './cpu-time.js';
import { median } from './stats.js';

const benchDir = dirname(fileURLToPath(import.meta.url)); // dist/test/bench
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, gateway: { type: 'string', default: join(benchDir, '../../bundle/host/main.js') } },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${values.runs}"`);

interface Start {
  /** Spawn to the listening line, ms. */
  readyMs: number;
  /** CPU time (user + system) of the process when it printed the listening line, ms; NaN without /proc. */
  cpuMs: number;
  /** Spawn to the first 200 of GET /health, ms (gateway cases). */
  healthMs?: number;
}

interface Case {
  name: string;
  args: () => string[];
  env?: () => Record<string, string>;
  health?: boolean;
}

const msSince = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

/** GET /health until it answers 200 (a fresh listener may still be refusing for a moment). */
async function healthy(url: string): Promise<void> {
  for (;;) {
    const status = await new Promise<number>((res) => {
      request(`${url}/health`, { agent: false }, (r) => {
        r.resume();
        r.on('end', () => res(r.statusCode ?? 0));
      }).on('error', () => res(0)).end();
    });
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 1));
  }
}

function startOnce(c: Case): Promise<Start> {
  return new Promise((resolvePromise, reject) => {
    const t0 = process.hrtime.bigint();
    const proc = spawn(process.execPath, c.args(), { env: { ...process.env, ...c.env?.() }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let ready = false;
    let done = false;
    const finish = (err: Error | undefined, start?: Start) => {
      if (done) return;
      done = true;
      const settle = () => (err ? reject(err) : resolvePromise(start!));
      if (proc.exitCode !== null || proc.signalCode !== null) return settle();
      proc.once('exit', settle);
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
    };
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (!m || ready) return;
      ready = true;
      const readyMs = msSince(t0);
      const cpuMs = (cpuTimesUs([proc.pid!])?.[0] ?? NaN) / 1000;
      if (!c.health) return finish(undefined, { readyMs, cpuMs });
      healthy(m[1]!).then(() => finish(undefined, { readyMs, cpuMs, healthMs: msSince(t0) }), (e: Error) => finish(e));
    });
    proc.once('exit', (code) => {
      finish(new Error(`${c.name}: exited (${code}) before it was ready:\n${out.slice(-2000)}`));
    });
    setTimeout(() => finish(new Error(`${c.name}: not ready within 30 s:\n${out.slice(-2000)}`)), 30_000).unref();
  });
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'gw-cold-'));
  const gateway = resolve(values.gateway);
  const minimalFile = join(work, 'minimal.json');
  writeFileSync(minimalFile, JSON.stringify({ preset: 'minimal' }));
  let fresh = 0;
  let lastDataDir = '';
  const freshDir = () => (lastDataDir = mkdtempSync(join(work, `data-${fresh++}-`)));
  const gatewayEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
    PORT: '0', HOST: '127.0.0.1', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: 'bench-key', GW_LOG_LEVEL: 'warn', ...extra,
  });
  const cases: Case[] = [
    { name: 'bare node', args: () => ['-e', "process.stdout.write('listening on http://127.0.0.1:1\\n'); setInterval(() => {}, 1000)"] },
    { name: 'bare undici proxy', args: () => [join(benchDir, 'bare-proxy.js'), '--upstream', 'http://127.0.0.1:9'] },
    { name: 'gateway, default preset, fresh data dir', args: () => [gateway], env: () => gatewayEnv(freshDir()), health: true },
    // Runs right after the fresh start, on its data dir.
    { name: 'gateway, default preset, restart', args: () => [gateway], env: () => gatewayEnv(lastDataDir), health: true },
    { name: 'gateway, minimal preset, fresh data dir', args: () => [gateway], env: () => gatewayEnv(freshDir(), { GW_CONFIG: minimalFile }), health: true },
    { name: 'unbundled dist/host/main.js, default', args: () => [join(benchDir, '../../host/main.js')], env: () => gatewayEnv(freshDir()), health: true },
  ];
  const results = cases.map(() => [] as Start[]);
  try {
    console.log(`cold start: ${runs} runs per case, cases taking turns; gateway ${gateway}`);
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < cases.length; k++) results[k]!.push(await startOnce(cases[k]!));
      process.stdout.write('.');
    }
    console.log(`\n\n${'ms: median [min-max]'.padEnd(42)}${'listening line'.padEnd(21)}${'CPU by then'.padEnd(21)}/health 200`);
    const fmt = (xs: number[]) => `${median(xs).toFixed(0)} [${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}]`;
    cases.forEach((c, k) => {
      const r = results[k]!;
      const health = r.every((s) => s.healthMs !== undefined) ? fmt(r.map((s) => s.healthMs!)) : '-';
      console.log(`${c.name.padEnd(42)}${fmt(r.map((s) => s.readyMs)).padEnd(21)}${fmt(r.map((s) => s.cpuMs)).padEnd(21)}${health}`);
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exitCode = 1;
});
