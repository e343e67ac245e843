/**
 * Bench reference: the least an LLM gateway must do per request, written as one plain handler, so
 * the gateway's ratio to it is the cost of its design (kernel, plugins, options) rather than of the
 * job. Per request it reads and parses the JSON body (a gateway must, to refuse a bad one with a
 * 400 naming the field), finds the caller's key by its SHA-256 (keys are stored hashed), picks the
 * upstream from `x-gw-custom-host` (one undici Pool per origin, as the gateway's transport), sends
 * the body's bytes as they came, reads the answer whole and parses only its `usage` object, and
 * answers with a trace id. A streamed request (`"stream": true`) is passed through chunk by chunk.
 * With `--log DIR` each request also gets a row in the gateway's own `request_logs` table (SQLite,
 * same columns, indexes and time-ordered ids), inserted in batches every 50 ms on the main thread.
 *
 * With `--stages` it marks where each whole answer's time goes and answers GET /bench/stages with
 * each stage's median, as the gateway's bench.stage-timings plugin does.
 *
 * Usage: node floor-gateway.js --key bench-key [--log DIR] [--stages]; prints its URL. No routing,
 * retries, limits, metrics or hooks: none of what makes a gateway configurable.
 */
import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool, type Dispatcher } from 'undici';
import { uuidv7 } from '../../plugins/observe/logs/ids.js';
import { COLUMNS, MIGRATIONS } from '../../plugins/observe/logs/schema.js';
import { PipeBack } from './proxy-forward-undici.js';
import { stageTimesOf } from './stage-timings.js';

const { values } = parseArgs({ options: { key: { type: 'string' }, log: { type: 'string' }, stages: { type: 'boolean', default: false } } });
if (!values.key) throw new Error('floor-gateway: --key is required');

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const keys = new Map([[sha256(values.key), { id: 'key-1', workspace: 'workspace-1', organisation: 'organisation-1' }]]);
const pools = new Map<string, Pool>();

function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool) pools.set(origin, (pool = new Pool(origin, { connections: 256, pipelining: 1, keepAliveTimeout: 60_000 })));
  return pool;
}

/** Rows waiting for the next batch insert, or undefined without `--log`. */
const logRows = values.log ? openLog(values.log) : undefined;

function openLog(dir: string): unknown[][] {
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const step of MIGRATIONS) db.exec(step);
  const insert = db.prepare(`INSERT INTO request_logs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  const insertAll = db.transaction((rows: unknown[][]) => rows.forEach((row) => insert.run(row)));
  const rows: unknown[][] = [];
  const flush = () => insertAll(rows.splice(0));
  setInterval(flush, 50).unref();
  process.on('SIGTERM', () => (flush(), process.exit(0)));
  return rows;
}

function logRow(req: IncomingMessage, key: { id: string; workspace: string; organisation: string }, model: unknown, status: number, startedAt: number, traceId: string, usage: Record<string, unknown> | undefined, stream: boolean): void {
  const latency = performance.now() - startedAt;
  const now = Date.now();
  logRows!.push([
    uuidv7(now), now, key.organisation, key.workspace, key.id, traceId, null, null, null, req.method, req.url, 'chat.completions',
    null, null, 'openai', null, typeof model === 'string' ? model : null, null, status, null, null, stream ? 1 : 0, latency, latency,
    usage?.['prompt_tokens'] ?? null, usage?.['completion_tokens'] ?? null, usage?.['total_tokens'] ?? null, null, null, 0, '{}', '[]', null, null,
  ]);
}

/** With `--stages`: the marks of one whole answer (performance.now()), and those of the answers since the last read. */
const MARKS = ['dispatched', 'bodyRead', 'parsed', 'sent', 'answerStart', 'answerEnd', 'written'] as const;
type Marks = Partial<Record<(typeof MARKS)[number], number>>;
const STAGES = ['host → body read', 'body parsed, key checked', 'request handed to undici', 'provider answers (headers)', 'answer body in', 'answer written'];
let marked: Marks[] = [];

function answerStages(res: ServerResponse): void {
  const times = stageTimesOf(marked, MARKS, STAGES);
  marked = [];
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(times));
}

/** The answer's `usage` object, parsed alone: from its key to the answer's last closing brace but one. */
function usageOf(answer: Buffer): Record<string, unknown> | undefined {
  const at = answer.lastIndexOf('"usage"');
  const end = answer.lastIndexOf('}', answer.lastIndexOf('}') - 1);
  if (at < 0 || end < at) return undefined;
  try {
    return JSON.parse(answer.toString('utf8', answer.indexOf('{', at), end + 1)) as Record<string, unknown>;
  } catch {
    return undefined; // usage is not the answer's last member: not logged
  }
}

/** A non-streamed answer: held whole, then answered with the trace id, its usage reported. */
class WholeAnswer extends PipeBack {
  readonly #chunks: Buffer[] = [];

  constructor(
    res: ServerResponse,
    private readonly traceId: string,
    private readonly done: (status: number, usage?: Record<string, unknown>) => void,
    private readonly marks: Marks | undefined,
  ) {
    super(res);
  }

  override onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    if (this.marks) this.marks.answerStart = performance.now();
    this.status = statusCode;
  }

  override onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  override onResponseEnd(): void {
    if (this.marks) this.marks.answerEnd = performance.now();
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.res.writeHead(this.status, { 'content-type': 'application/json', 'x-gw-trace-id': this.traceId }).end(body);
    if (this.marks) {
      this.marks.written = performance.now();
      marked.push(this.marks);
    }
    this.done(this.status, usageOf(body));
  }
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message } }));
}

function handle(req: IncomingMessage, res: ServerResponse, raw: Buffer, startedAt: number, marks: Marks | undefined): void {
  const key = keys.get(sha256(String(req.headers['x-gw-api-key'] ?? '')));
  if (!key) return refuse(res, 401, 'unknown key');
  let body: Record<string, unknown>;
  let upstream: URL;
  try {
    body = JSON.parse(raw.toString()) as Record<string, unknown>;
    upstream = new URL(String(req.headers['x-gw-custom-host']));
  } catch {
    return refuse(res, 400, 'the body must be JSON and x-gw-custom-host a URL');
  }
  const traceId = randomUUID();
  const stream = body['stream'] === true;
  const path = upstream.pathname.replace(/\/$/, '') + (req.url ?? '').replace(/^\/v1/, '');
  const headers = ['content-type', 'application/json', 'authorization', String(req.headers.authorization ?? '')];
  const done = (status: number, usage?: Record<string, unknown>) => logRows && logRow(req, key, body['model'], status, startedAt, traceId, usage, stream);
  // A stream passes through as the bare proxy passes it, with the trace id.
  const answer = stream ? new PipeBack(res, { headers: { 'x-gw-trace-id': traceId }, ended: done }) : new WholeAnswer(res, traceId, done, marks);
  if (marks) marks.parsed = performance.now();
  poolFor(upstream.origin).dispatch({ path, method: 'POST', headers, body: raw }, answer);
  if (marks) marks.sent = performance.now();
}

const server = createServer((req, res) => {
  const startedAt = performance.now();
  if (values.stages && req.method === 'GET' && req.url === '/bench/stages') return answerStages(res);
  const marks: Marks | undefined = values.stages ? { dispatched: startedAt } : undefined;
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (marks) marks.bodyRead = performance.now();
    handle(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), startedAt, marks);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  if (addr && typeof addr === 'object') console.log(`listening on http://127.0.0.1:${addr.port}`);
});
