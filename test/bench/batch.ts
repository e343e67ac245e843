/**
 * Batch benchmark (issue 7): a gateway-managed batch of N chat lines against a fast upstream,
 * compared with the same N requests sent live through the gateway with the same concurrency.
 * Goal: batch time <= 2x live time. Reports both times and the gateway's peak memory.
 *
 *   node dist/test/bench/batch.js [--lines 10000] [--concurrency 8]
 *
 * Processes: the bench upstream (upstream.ts) and the gateway (dist/host/main.js with the files,
 * batches and secret-box plugins by path) are children; this process is the client. Gateway
 * memory is sampled from /proc/<pid>/status (VmRSS every 25 ms, VmHWM at the end).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { killChildrenOnExit, startServer, stopAll } from './processes.js';

const { values } = parseArgs({ options: { lines: { type: 'string' }, concurrency: { type: 'string' } } });
const LINES = Number(values.lines ?? 10_000);
const CONCURRENCY = Number(values.concurrency ?? 8);
const KEY = 'bench-key';

interface Memory {
  peakRssMb: number;
}

/** Samples VmRSS of a process while `work` runs. */
async function sampled<T>(pid: number, work: () => Promise<T>): Promise<{ value: T; memory: Memory }> {
  let peak = 0;
  let stop = false;
  const sampler = (async () => {
    while (!stop) {
      peak = Math.max(peak, await statusKb(pid, 'VmRSS'));
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  try {
    const value = await work();
    return { value, memory: { peakRssMb: peak / 1024 } };
  } finally {
    stop = true;
    await sampler;
  }
}

async function statusKb(pid: number, field: string): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

function chatBody(i: number): Record<string, unknown> {
  return { model: 'gpt-bench', messages: [{ role: 'user', content: `bench line ${i}` }], max_tokens: 16 };
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const work = await mkdtemp(join(tmpdir(), 'gw-bench-batch-'));
  const dataDir = join(work, 'data');
  const gatewayFile = join(work, 'gateway.json');
  await writeFile(gatewayFile, JSON.stringify({
    plugins: [
      resolve('dist/plugins/security/secret-box/index.js'),
      resolve('dist/plugins/features/files/index.js'),
      { use: resolve('dist/plugins/features/batches/index.js'), options: { concurrency: CONCURRENCY } },
    ],
    // Per-request access log lines would measure the log sink, on both sides alike.
    disable: ['observe.access-log'],
  }));
  const upstream = await startServer('upstream', resolve('dist/test/bench/upstream.js'), [], {}, join(work, 'upstream.log'));
  const gateway = await startServer('gateway', resolve('dist/host/main.js'), ['--config', gatewayFile], {
    PORT: '0', GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: KEY, GW_LOG_LEVEL: 'warn',
  }, join(work, 'gateway.log'));
  const pid = gateway.proc.pid!;
  const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 60_000 });
  const headers = {
    'content-type': 'application/json', 'x-gw-api-key': KEY, 'x-gw-provider': 'openai',
    authorization: 'Bearer sk-bench', 'x-gw-custom-host': `${upstream.url}/v1`,
  };

  const live = async (count: number): Promise<number> => {
    let next = 0;
    let failures = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const res = await request(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(chatBody(i)), dispatcher: agent });
        await res.body.text();
        if (res.statusCode !== 200) failures++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return failures;
  };

  const json = async (method: string, path: string, body?: unknown, extra: Record<string, string> = headers) => {
    const res = await request(gateway.url + path, { method: method as 'GET', headers: extra, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: agent });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as Record<string, any>;
  };

  const uploadLines = async (count: number): Promise<string> => {
    let text = '';
    for (let i = 0; i < count; i++) text += JSON.stringify({ custom_id: `b-${i}`, method: 'POST', url: '/v1/chat/completions', body: chatBody(i) }) + '\n';
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([text]), 'bench.jsonl');
    const res = await fetch(`${gateway.url}/v1/files`, { method: 'POST', headers: { 'x-gw-api-key': KEY }, body: form });
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  };

  const batch = async (inputId: string): Promise<Record<string, any>> => {
    const created = await json('POST', '/v1/batches', { input_file_id: inputId, endpoint: '/v1/chat/completions', completion_window: 'immediate' });
    for (;;) {
      const b = await json('GET', `/v1/batches/${created['id']}`, undefined, { 'x-gw-api-key': KEY });
      if (['completed', 'failed', 'expired', 'cancelled'].includes(b['status'])) return b;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  try {
    console.log(`batch bench: ${LINES} chat lines, concurrency ${CONCURRENCY}; work dir ${work}`);
    // Warm-up both paths (JIT, connection pools) before measuring.
    await live(500);
    await batch(await uploadLines(500));

    const liveRun = await sampled(pid, async () => {
      const started = performance.now();
      const failures = await live(LINES);
      return { ms: performance.now() - started, failures };
    });
    const inputId = await uploadLines(LINES);
    const batchRun = await sampled(pid, async () => {
      const started = performance.now();
      const result = await batch(inputId);
      return { ms: performance.now() - started, result };
    });
    const counts = batchRun.value.result['request_counts'];
    const hwm = (await statusKb(pid, 'VmHWM')) / 1024;

    const ratio = batchRun.value.ms / liveRun.value.ms;
    console.log('');
    console.log('| run | requests | time (s) | req/s | failures | gateway peak RSS (MB) |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| live, ${CONCURRENCY} in flight | ${LINES} | ${(liveRun.value.ms / 1000).toFixed(2)} | ${(LINES / liveRun.value.ms * 1000).toFixed(0)} | ${liveRun.value.failures} | ${liveRun.memory.peakRssMb.toFixed(1)} |`);
    console.log(`| managed batch, concurrency ${CONCURRENCY} | ${counts.total} | ${(batchRun.value.ms / 1000).toFixed(2)} | ${(LINES / batchRun.value.ms * 1000).toFixed(0)} | ${counts.failed} | ${batchRun.memory.peakRssMb.toFixed(1)} |`);
    console.log('');
    console.log(`batch / live time: ${ratio.toFixed(2)} (goal <= 2.00): ${ratio <= 2 ? 'PASS' : 'FAIL'}`);
    console.log(`gateway VmHWM (peak RSS over the whole run): ${hwm.toFixed(1)} MB`);
    if (batchRun.value.result['status'] !== 'completed' || counts.completed !== LINES) {
      throw new Error(`batch did not complete every line: ${JSON.stringify(batchRun.value.result)}`);
    }
    process.exitCode = ratio <= 2 ? 0 : 1;
  } finally {
    await agent.close();
    await stopAll();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exitCode = 1;
  void stopAll();
});
