/**
 * CPU per request-log row written to SQLite, on each side of the store's batch writer:
 *
 *   node dist/test/bench/log-writer-cost.js [--rows 200000] [--batch 500] [--runs 5] [--build DIR ...]
 *
 * Each run is a child process. Realistic rows (the `chat` scenario's kind: a UUIDv7 id as the log plugin makes, a trace
 * id, metadata `{}`, hook results `[]`, no bodies) go through each build's own `LogStore.insert` and
 * `SqliteStore` batch writer, on its own fresh file, one batch at a time as the recorder writes
 * them. Rows are made in chunks between measured windows; inside a window the main thread's CPU
 * (insert calls, posting, answers, their garbage) and the writer thread's are read from
 * /proc/self/task/<tid>/schedstat (nanoseconds); a build's writer thread is the one that appeared at
 * its first batch. `--build` (repeatable, a `dist` directory; default this build) compares builds
 * in one process, window by window on the same rows, in alternating order. Linux only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { uuidv7 } from '../../plugins/observe/logs/ids.js';
import { COLUMNS } from '../../plugins/observe/logs/schema.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '500' },
    runs: { type: 'string', default: '5' },
    build: { type: 'string', multiple: true },
    child: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const BATCH = Number(values.batch);
/** Rows made at once between measured windows: the heap never holds all of them. */
const CHUNK_BATCHES = 20;
const WARMUP_BATCHES = 20;

interface RunResult {
  build: string;
  rows: number;
  mainUsPerRow: number;
  writerUsPerRow: number;
  /** Every other thread of the process (GC helpers, libuv) during the measured windows. */
  otherUsPerRow: number;
  wallMs: number;
  /** `typeof()` of each column's stored values, to compare builds. */
  types: string;
}

/** CPU time of each thread of this process, in ns (schedstat's first field). */
function threadTimes(): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      times.set(Number(tid), Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return times;
}

const hex = (n: number, width: number) => Math.floor(n).toString(16).padStart(width, '0');
const randomHex = (width: number) => Array.from({ length: width }, () => hex(Math.random() * 16, 1)).join('');
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-nano'];

/** A row like the `chat` scenario's, in COLUMNS order. */
function chatRow(n: number, createdAt: number): unknown[] {
  const id = uuidv7(createdAt);
  const prompt = 10 + (n % 90);
  const completion = 5 + (n % 200);
  const byColumn: Record<string, unknown> = {
    id, created_at: createdAt, organisation_id: 'org_01HZX3K9Q8V2', workspace_id: 'ws_default', api_key_id: 'key_7f3a9c2e',
    trace_id: randomHex(32), span_id: null, parent_span_id: null, span_name: null, method: 'POST', path: '/v1/chat/completions',
    endpoint: 'chat.completions', config_id: null, prompt_id: null, provider: 'openai', integration: null,
    model: MODELS[n % MODELS.length], target: null, status: 200, error_code: null, reason: null, stream: 0,
    latency_ms: Math.round(Math.random() * 5_000_000) / 1000, upstream_latency_ms: Math.round(Math.random() * 4_000_000) / 1000,
    prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion,
    cost: (prompt * 0.15 + completion * 0.6) / 1e6, cache_status: null, retry_count: 0, metadata: '{}', hook_results: '[]',
    request_body: null, response_body: null,
  };
  return COLUMNS.map((c) => byColumn[c]);
}

interface Subject {
  build: string;
  logs: { insert(rows: unknown[][]): Promise<void> };
  store: { db: { prepare(sql: string): { all(): unknown[]; get(): unknown } }; close(): Promise<void> };
  writers: number[];
  main: number;
  writer: number;
  other: number;
  wall: number;
}

/** A store of `build` on a fresh file, warmed up; its writer thread is the one that appeared at its first batch. */
async function subject(build: string, dir: string, warmup: unknown[][][]): Promise<Subject> {
  const { SqliteStore } = (await import(pathToFileURL(join(build, 'plugins/stores/sqlite/sqlite-store.js')).href)) as typeof import('../../plugins/stores/sqlite/sqlite-store.js');
  const { LogStore } = (await import(pathToFileURL(join(build, 'plugins/observe/logs/store.js')).href)) as typeof import('../../plugins/observe/logs/store.js');
  const store = new SqliteStore(join(dir, `${Math.random().toString(36).slice(2)}.db`));
  const logs = new LogStore(store);
  await logs.init(false);
  const before = new Set(threadTimes().keys());
  for (const batch of warmup) await logs.insert(batch);
  const writers = [...threadTimes().keys()].filter((tid) => !before.has(tid));
  if (writers.length === 0) throw new Error(`${build}: no writer thread appeared (is it writing on the main thread?)`);
  return { build, logs, store, writers, main: 0, writer: 0, other: 0, wall: 0 };
}

/** One window: the batches through one subject, its threads' CPU added up. */
async function measure(s: Subject, batches: unknown[][][]): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = threadTimes();
  const w0 = performance.now();
  for (const batch of batches) await s.logs.insert(batch);
  s.wall += performance.now() - w0;
  for (const [tid, ns] of threadTimes()) {
    const spent = ns - (t0.get(tid) ?? 0);
    if (tid === process.pid) s.main += spent;
    else if (s.writers.includes(tid)) s.writer += spent;
    else s.other += spent;
  }
}

/** Every build in one process, on the same rows, window by window (A B B A ...), so drift hits all alike. */
async function child(builds: string[]): Promise<RunResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-log-writer-'));
  let n = 0;
  let createdAt = Date.now();
  const batchesOf = (count: number) =>
    Array.from({ length: count }, () => Array.from({ length: BATCH }, () => chatRow(n++, Math.floor((createdAt += 0.05)))));
  const subjects: Subject[] = [];
  const warmup = batchesOf(WARMUP_BATCHES);
  for (const build of builds) subjects.push(await subject(build, dir, warmup));
  let rows = 0;
  for (let window = 0; rows < ROWS; window++) {
    const batches = batchesOf(Math.min(CHUNK_BATCHES, Math.ceil((ROWS - rows) / BATCH)));
    const order = window % 2 === 0 ? subjects : [...subjects].reverse();
    for (const s of order) await measure(s, batches);
    rows += batches.length * BATCH;
  }
  const results: RunResult[] = [];
  for (const s of subjects) {
    const types = COLUMNS.map((c) => {
      const found = s.store.db.prepare(`SELECT DISTINCT typeof(${c}) AS t FROM request_logs ORDER BY t`).all() as { t: string }[];
      return `${c}:${found.map((f) => f.t).join('|')}`;
    }).join(' ');
    const count = (s.store.db.prepare('SELECT COUNT(*) AS n FROM request_logs').get() as { n: number }).n;
    if (count !== n) throw new Error(`${s.build}: ${count} rows stored, ${n} written`);
    await s.store.close();
    const perRow = (ns: number) => Math.round(ns / rows / 10) / 100;
    results.push({ build: s.build, rows, mainUsPerRow: perRow(s.main), writerUsPerRow: perRow(s.writer), otherUsPerRow: perRow(s.other), wallMs: Math.round(s.wall), types });
  }
  rmSync(dir, { recursive: true, force: true });
  return results;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

if (values.child) {
  process.stdout.write(JSON.stringify(await child(values.build!)) + '\n');
} else {
  const builds = (values.build ?? [resolve(benchDir, '../..')]).map((b) => resolve(b));
  const results = new Map<string, RunResult[]>(builds.map((b) => [b, []]));
  const buildArgs = builds.flatMap((b) => ['--build', b]);
  for (let run = 0; run < Number(values.runs); run++) {
    const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', ...buildArgs, '--rows', String(ROWS), '--batch', String(BATCH)], { encoding: 'utf8' });
    for (const result of JSON.parse(out) as RunResult[]) {
      results.get(result.build)!.push(result);
      console.log(`run ${run + 1} ${result.build}: main ${result.mainUsPerRow} µs/row, writer ${result.writerUsPerRow}, other threads ${result.otherUsPerRow}, wall ${result.wallMs} ms`);
    }
  }
  console.log(`\n${ROWS} rows in batches of ${BATCH}, medians of ${values.runs} runs (µs of CPU per row):`);
  const first = results.get(builds[0]!)!;
  for (const [build, rs] of results) {
    const main = median(rs.map((r) => r.mainUsPerRow));
    const writer = median(rs.map((r) => r.writerUsPerRow));
    const total = median(rs.map((r) => r.mainUsPerRow + r.writerUsPerRow));
    const ratio = (pick: (r: RunResult) => number) => median(rs.map((r, i) => pick(r) / pick(first[i]!))).toFixed(3);
    const against = build === builds[0] ? '' : `; against the first build, median of the runs' ratios: main ${ratio((r) => r.mainUsPerRow)}, writer ${ratio((r) => r.writerUsPerRow)}, main + writer ${ratio((r) => r.mainUsPerRow + r.writerUsPerRow)}`;
    console.log(`${build}: main ${main}, writer ${writer}, main + writer ${Math.round(total * 100) / 100}, other threads ${median(rs.map((r) => r.otherUsPerRow))}${against}`);
  }
  const typeSets = new Set([...results.values()].flat().map((r) => r.types));
  console.log(typeSets.size === 1 ? `stored types: ${[...typeSets][0]}` : `stored types DIFFER between builds:\n${[...typeSets].join('\n')}`);
}
