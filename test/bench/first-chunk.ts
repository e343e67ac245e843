/**
 * Stream timing with µs resolution, standalone (not a scenario of run.ts):
 *
 *   node dist/test/bench/first-chunk.js [--requests 300] [--events 20] [--delay 2]
 *   node dist/test/bench/first-chunk.js --load 64 [--duration 5] [--rounds 3]
 *   ... --compare ../main/dist/host/main.js    (another build's gateway too, in the same run)
 *   ... --cpu-prof DIR                          (the gateways write CPU profiles there on exit)
 *
 * It starts a paced upstream (this file with --upstream: headers at once, then every event after
 * `--delay` ms, OpenAI chunks or Anthropic Messages events), the bare proxy and the gateway, and
 * compares three paths: the proxy in front of the OpenAI stream, the gateway passing it through
 * (x-gw-provider openai), and the gateway translating the Anthropic stream.
 *
 * Without --load: sequential requests, the three paths interleaved. Per path, the p50/p99 of
 *   - first: request written → first `data:` chunk read (what a client waits for);
 *   - hop: the upstream's write of its first event → that chunk read by the client. The upstream
 *     puts its process.hrtime (CLOCK_MONOTONIC, one clock for every process of the machine) in the
 *     first event's id, so the upstream's timer jitter is not in this figure: it is what the path
 *     adds to a chunk, the proxy's included.
 * With --load C: C connections streaming for --duration s per run, runs alternating proxy,
 * pass-through, translation; streams per second and each server's CPU time per stream
 * (/proc/<pid>/stat), medians over rounds. CPU per stream hardly drifts with the machine.
 */
import { Agent, createServer, request, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, killChildrenOnExit, startServer, stopAll } from './processes.js';
import { median, percentile } from './stats.js';

const { values: opt } = parseArgs({
  options: {
    upstream: { type: 'boolean', default: false },
    requests: { type: 'string', default: '300' },
    events: { type: 'string', default: '20' },
    delay: { type: 'string', default: '2' },
    load: { type: 'string' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    gateway: { type: 'string' },
    compare: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const events = Math.max(6, Number(opt.events));
const delayMs = Number(opt.delay);

if (opt.upstream) serveUpstream();
else void main().then(() => stopAll(), async (e) => {
  console.error(e);
  await stopAll();
  process.exitCode = 1;
});

// ---------- the paced upstream ----------

/**
 * Every event carries the moment it is written (process.hrtime: CLOCK_MONOTONIC, one clock for all
 * processes of the machine), in the ids of OpenAI chunks and in the text: the client reads it back.
 */
const STAMP = 'bench_' + '0'.repeat(19);
const STAMPED = /bench_\d{19}/g;
const stamp = () => 'bench_' + String(process.hrtime.bigint()).padStart(19, '0');

function openaiEvents(id: string): string[] {
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({
    id, object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '' }, null)];
  for (let i = 0; i < events - 3; i++) out.push(chunk({ content: ` ${STAMP}` }, null));
  out.push(chunk({}, 'stop'), 'data: [DONE]\n\n');
  return out;
}

/** As many Messages events as OpenAI chunks, so both paths take as long upstream. */
function anthropicEvents(id: string): string[] {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [
    event('message_start', { message: { id, type: 'message', role: 'assistant', model: 'claude-bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  for (let i = 0; i < events - 5; i++) out.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ` ${STAMP}` } }));
  out.push(
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } }),
    event('message_stop', {}),
  );
  return out;
}

function serveUpstream(): void {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.flushHeaders();
      void pace(res, req.url?.endsWith('/messages') === true);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    if (addr && typeof addr === 'object') console.log(`listening on http://127.0.0.1:${addr.port}`);
  });
}

async function pace(res: ServerResponse, anthropic: boolean): Promise<void> {
  const sleep = () => new Promise((r) => setTimeout(r, delayMs));
  await sleep();
  const list = anthropic ? anthropicEvents(STAMP) : openaiEvents(STAMP);
  for (let i = 0; i < list.length; i++) {
    if (i > 0) await sleep();
    if (res.destroyed) return;
    res.write(list[i]!.replaceAll(STAMP, stamp()));
  }
  res.end();
}

// ---------- the client ----------

interface Path {
  label: string;
  origin: string;
  headers: Record<string, string>;
  pid: number;
}

const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, max_tokens: 16, messages: [{ role: 'user', content: 'Say hello.' }] });

interface Sample {
  firstUs: number;
  hopUs: number;
  /** The hop of every later event. */
  laterUs: number[];
}

function streamOnce(p: Path, agent: Agent): Promise<Sample> {
  return new Promise((resolve, reject) => {
    let t0 = 0n;
    let sample: Sample | undefined;
    let text = '';
    const req = request(p.origin + '/v1/chat/completions', { method: 'POST', agent, headers: { ...p.headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.setEncoding('latin1');
      res.on('data', (c: string) => {
        const now = process.hrtime.bigint();
        // The newest stamp of a read is its last event's (translated chunks also repeat the first one's id).
        const hop = Math.min(...(c.match(STAMPED) ?? []).map((m) => Number(now - BigInt(m.slice(6))) / 1e3));
        if (sample) {
          if (hop !== Infinity) sample.laterUs.push(hop);
        } else if (c.includes('data:')) {
          sample = { firstUs: Number(now - t0) / 1e3, hopUs: hop, laterUs: [] };
        }
        text += c;
      });
      res.on('end', () => {
        if (res.statusCode !== 200 || !sample || !text.includes('data: [DONE]')) {
          return reject(new Error(`${p.label}: answered ${res.statusCode}: ${text.slice(0, 300)}`));
        }
        resolve(sample);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    t0 = process.hrtime.bigint();
    req.end(body);
  });
}

const fmt = (us: number) => us.toFixed(0).padStart(7);

async function firstChunk(paths: Path[], n: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const samples = paths.map(() => [] as Sample[]);
  for (let i = 0; i < n + 20; i++) {
    for (let j = 0; j < paths.length; j++) {
      const s = await streamOnce(paths[j]!, agent);
      if (i >= 20) samples[j]!.push(s); // the first 20 warm the JIT and the pools
    }
  }
  agent.destroy();
  console.log(`\nfirst chunk, ${n} sequential streams per path (${events} events, ${delayMs} ms apart), µs`);
  // On a busy machine the low percentiles show a path's own cost best: preemption only adds.
  console.log('path                first p50  first p99 |  hop p10    hop p50    hop p99 | later p10  later p50 | +hop p10/p50, +later p10/p50 vs proxy');
  const hop0 = samples[0]!.map((s) => s.hopUs);
  const later0 = samples[0]!.flatMap((s) => s.laterUs);
  paths.forEach((p, j) => {
    const first = samples[j]!.map((s) => s.firstUs);
    const hop = samples[j]!.map((s) => s.hopUs);
    const later = samples[j]!.flatMap((s) => s.laterUs);
    const vs = (a: number[], b: number[]) => `${(percentile(a, 10) - percentile(b, 10)).toFixed(0)}/${(median(a) - median(b)).toFixed(0)}`;
    console.log(`${p.label.padEnd(18)} ${fmt(median(first))}    ${fmt(percentile(first, 99))} | ${fmt(percentile(hop, 10))}    ${fmt(median(hop))}    ${fmt(percentile(hop, 99))} |   ${fmt(percentile(later, 10))}    ${fmt(median(later))} | ${vs(hop, hop0)}, ${vs(later, later0)}`);
  });
}

/** utime + stime of a process, in µs (clock ticks of 10 ms on Linux: read over whole runs only). */
function cpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function loadRun(p: Path, connections: number, seconds: number): Promise<{ perSecond: number; cpuPerStream: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const end = performance.now() + seconds * 1000;
  const cpu0 = cpuUs(p.pid);
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      await streamOnce(p, agent);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = cpuUs(p.pid) - cpu0;
  agent.destroy();
  return { perSecond: done / elapsed, cpuPerStream: cpu / done };
}

async function load(paths: Path[], connections: number, seconds: number, rounds: number): Promise<void> {
  const runs = paths.map(() => [] as { perSecond: number; cpuPerStream: number }[]);
  for (const p of paths) await loadRun(p, connections, 1); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < paths.length; j++) runs[j]!.push(await loadRun(paths[j]!, connections, seconds));
  }
  console.log(`\npaced streams: ${connections} connections, ${events} events ${delayMs} ms apart, ${rounds} rounds × ${seconds} s, medians`);
  console.log('path               streams/s   ratio   server CPU µs/stream');
  const base = median(runs[0]!.map((x) => x.perSecond));
  paths.forEach((p, j) => {
    const ps = median(runs[j]!.map((x) => x.perSecond));
    console.log(`${p.label.padEnd(18)} ${ps.toFixed(0).padStart(9)}   ${(ps / base).toFixed(3)}   ${fmt(median(runs[j]!.map((x) => x.cpuPerStream)))}`);
  });
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const here = dirname(fileURLToPath(import.meta.url));
  const gatewayMain = opt.gateway ?? join(here, '..', '..', 'host', 'main.js');
  const dir = mkdtempSync(join(tmpdir(), 'gw-first-chunk-'));
  console.log(`logs in ${dir}`);
  const up = await startServer('upstream', fileURLToPath(import.meta.url), ['--upstream', '--events', String(events), '--delay', String(delayMs)], {}, join(dir, 'upstream.log'));
  const proxy = await startServer('bare-proxy', join(here, 'bare-proxy.js'), ['--upstream', up.url], {}, join(dir, 'proxy.log'));
  const headers = { 'content-type': 'application/json', authorization: 'Bearer sk-bench', 'x-gw-api-key': 'bench-key', 'x-api-key': 'sk-bench' };
  const paths: Path[] = [{ label: 'proxy (openai)', origin: proxy.url, headers, pid: proxy.proc.pid! }];
  // --compare: another build's gateway (e.g. ../main/dist/host/main.js) measured in the same run.
  const profile = opt['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', opt['cpu-prof'], '--cpu-prof-interval', '50'] : [];
  for (const [name, main] of opt.compare ? [['old ', opt.compare], ['', gatewayMain]] : [['', gatewayMain]]) {
    const gw = await startServer(`${name}gateway`, main!, [], {
      PORT: String(await freePort()), HOST: '127.0.0.1', GW_DATA_DIR: mkdtempSync(join(dir, 'gw-')), GW_BOOTSTRAP_API_KEY: 'bench-key', GW_LOG_LEVEL: 'info',
    }, join(dir, `${name.trim() || 'new'}-gateway.log`), undefined, undefined, profile);
    paths.push(
      { label: `${name}gw pass-through`, origin: gw.url, headers: { ...headers, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${up.url}/v1` }, pid: gw.proc.pid! },
      { label: `${name}gw anthropic`, origin: gw.url, headers: { ...headers, 'x-gw-provider': 'anthropic', 'x-gw-custom-host': `${up.url}/v1` }, pid: gw.proc.pid! },
    );
  }
  if (opt.load) await load(paths, Number(opt.load), Number(opt.duration), Number(opt.rounds));
  else await firstChunk(paths, Number(opt.requests));
}
