/**
 * What the request logs cost a gateway process, and what a crash loses of them:
 *
 *   node dist/test/bench/log-cost.js cpu   [--requests 20000] [--connections 32] [--gateway path/main.js]
 *       CPU time per request of the gateway process (all threads) and of its main thread alone,
 *       over a fixed number of requests (after a warm-up): /proc/<pid>/stat and /proc/<pid>/task/<pid>/stat.
 *   node dist/test/bench/log-cost.js kill9 [--rounds 5] [--flush-interval MS] [--gateway path/main.js]
 *       Rows lost per kill -9 under load: answered requests (2xx) minus rows in gw.db.
 *
 * Linux only (/proc). Plain chat in direct mode against the bench upstream; the default preset.
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killChildrenOnExit, startServer, stop, stopAll, type ServerProcess } from './processes.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(benchDir, '../../..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '5' },
    'flush-interval': { type: 'string' },
    gateway: { type: 'string', default: join(root, 'dist/host/main.js') },
  },
});
const mode = positionals[0];
const work = mkdtempSync(join(tmpdir(), 'gw-log-cost-'));
const CLOCK_TICKS_PER_S = 100;

/** utime + stime of a /proc stat file, in ms. */
function cpuMs(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

async function startGateway(name: string): Promise<ServerProcess & { dataDir: string }> {
  const dataDir = join(work, name);
  const args: string[] = [];
  if (values['flush-interval']) {
    const file = join(work, `${name}.json`);
    writeFileSync(file, JSON.stringify({ plugins: [{ use: 'observe.logs', options: { flushIntervalMs: Number(values['flush-interval']) } }] }));
    args.push('--config', file);
  }
  const gw = await startServer(name, resolve(values.gateway), args, {
    PORT: '0', HOST: '127.0.0.1', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: 'bench-key', GW_LOG_LEVEL: 'warn',
  }, join(work, `${name}.log`));
  return { ...gw, dataDir };
}

function load(url: string, upstream: string, o: { amount?: number; duration?: number }) {
  return autocannon({
    url: `${url}/v1/chat/completions`, method: 'POST', connections: Number(values.connections), timeout: 10, ...o,
    headers: {
      'content-type': 'application/json', 'x-gw-api-key': 'bench-key', 'x-gw-provider': 'openai',
      authorization: 'Bearer sk-bench', 'x-gw-custom-host': `${upstream}/v1`,
    },
    body: JSON.stringify({ model: 'gpt-bench', messages: [{ role: 'user', content: 'hi' }] }),
  });
}

async function cpu(upstream: string): Promise<void> {
  const gw = await startGateway('cpu');
  const pid = gw.proc.pid!;
  await load(gw.url, upstream, { amount: 2000 });
  const n = Number(values.requests);
  const before = { all: cpuMs(`/proc/${pid}/stat`), main: cpuMs(`/proc/${pid}/task/${pid}/stat`) };
  const r = await load(gw.url, upstream, { amount: n });
  // Let the last batches be written: their cost belongs to these requests.
  await new Promise((done) => setTimeout(done, 1000));
  const after = { all: cpuMs(`/proc/${pid}/stat`), main: cpuMs(`/proc/${pid}/task/${pid}/stat`) };
  console.log(JSON.stringify({
    requests: n, non2xx: r.non2xx, errors: r.errors, rps: Math.round(r.requests.average), p99: r.latency.p99,
    cpuUsPerRequest: Math.round(((after.all - before.all) * 1000) / n),
    mainThreadCpuUsPerRequest: Math.round(((after.main - before.main) * 1000) / n),
  }));
  await stop(gw.proc);
}

async function kill9(upstream: string): Promise<void> {
  const lost: number[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    const gw = await startGateway(`kill9-${round}`);
    const running = load(gw.url, upstream, { duration: 10 });
    await new Promise((done) => setTimeout(done, 3000));
    gw.proc.kill('SIGKILL');
    const r = await running;
    const db = new Database(join(gw.dataDir, 'gw.db'), { readonly: true });
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM request_logs').get() as { n: number }).n;
    db.close();
    lost.push(r['2xx'] - rows);
    console.log(JSON.stringify({ round, answered: r['2xx'], rows, lost: r['2xx'] - rows }));
  }
  console.log(JSON.stringify({ lostPerKill: lost, min: Math.min(...lost), max: Math.max(...lost) }));
}

killChildrenOnExit();
const up = await startServer('upstream', join(benchDir, 'upstream.js'), [], { PORT: '0' }, join(work, 'upstream.log'));
try {
  if (mode === 'cpu') await cpu(up.url);
  else if (mode === 'kill9') await kill9(up.url);
  else throw new Error('usage: log-cost.js cpu|kill9 [options]');
} finally {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
