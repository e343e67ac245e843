/**
 * Fuzz below HTTP: seeded raw requests over TCP with broken request lines, control bytes in header
 * names and values, conflicting or malformed framing, oversized headers and cut messages. Every
 * connection must end, within the time-outs, with a parseable HTTP answer whose error body is the
 * envelope, or be closed; the gateway must keep serving. Replay with GW_FUZZ_SEED.
 */
import { expect } from 'chai';
import type { Plugin, PluginApi } from '../../core/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { rawConnect } from '../helpers/raw-http.js';
import { Random } from './random.js';

const SEED = Number(process.env['GW_FUZZ_SEED'] ?? 20261126);
const COUNT = 240;
const CONCURRENCY = 12;
/** Far above the server's own time-outs below: a connection still open by then hangs. */
const HANG_MS = 6_000;

const unexpected: unknown[] = [];
class WatchPlugin implements Plugin {
  static readonly manifest = { id: 'test.wire-fuzz-watch', description: 'wire fuzz observer' };
  apply(api: PluginApi): void {
    api.hooks.onError.tap(api.id, (error) => {
      unexpected.push(error);
    });
  }
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'CONNECT', 'TRACE', 'G ET', 'POST\u0000', 'pOsT', 'PRI', ''];
const TARGETS = ['/v1/chat/completions', '/v1/models', '/health', '/v1/api-keys', '/v1/files', '/', '*', '/v1/chat/completions?x=%zz',
  'http://127.0.0.1/v1/models', '/v1/chat/completions#frag', '/v1/../etc/passwd', '/v1/\u0000', '/ spaces in path', '/' + 'a'.repeat(20_000)];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1x', 'http/1.1', 'HTTP/1', ''];
const ODD_HEADERS: readonly string[] = [
  'content-length: -1', 'content-length: abc', 'content-length: 1e3', 'content-length: 10, 20', 'content-length: 99999999999999999999',
  'transfer-encoding: chunked', 'transfer-encoding: gzip', 'transfer-encoding: chunked, chunked', 'transfer-encoding: identity',
  'x-gw-config: {"provider":"openai"', 'x-gw-config: [[[[[[[[[[', 'x-gw-trace-id: \u0001bad', 'x-gw-metadata: {"a":1}',
  'bad header: x', 'x-nul: a\u0000b', 'x-del: a\u007fb', ': empty-name', 'x-folded: a\r\n  continued', 'x-long: ' + 'y'.repeat(20_000),
  'expect: 100-continue', 'expect: something-else', 'upgrade: websocket', 'connection: upgrade', 'host:', 'content-type: application/json; charset=utf-7',
];
const BODIES = ['', JSON.stringify(CHAT_BODY), '{"model":', '\u0000\u0001\u0002', '0\r\n\r\n', 'zz\r\nab\r\n0\r\n\r\n', '5\r\nab', 'x'.repeat(5000)];

interface WireInput {
  bytes: Buffer;
  summary: string;
  /** A HEAD answer has no body to judge. */
  head: boolean;
}

function makeWireInput(rng: Random, mockUrl: string): WireInput {
  const method = rng.chance(0.7) ? rng.pick(['GET', 'POST']) : rng.pick(METHODS);
  const target = rng.chance(0.6) ? rng.pick(TARGETS.slice(0, 5)) : rng.pick(TARGETS);
  const version = rng.chance(0.75) ? 'HTTP/1.1' : rng.pick(VERSIONS);
  const headers = ['host: 127.0.0.1', 'connection: close'];
  if (rng.chance(0.7)) headers.push(`x-gw-api-key: ${TEST_API_KEY}`, 'x-gw-provider: openai', 'authorization: Bearer sk-fuzz', `x-gw-custom-host: ${mockUrl}/v1`);
  const body = rng.pick(BODIES);
  if (rng.chance(0.6)) headers.push(`content-length: ${rng.chance(0.8) ? Buffer.byteLength(body) : rng.int(0, 10_000)}`);
  for (let i = rng.chance(0.6) ? rng.int(1, 3) : 0; i > 0; i--) headers.push(rng.pick(ODD_HEADERS));
  if (rng.chance(0.03)) for (let i = 0; i < 3000; i++) headers.push(`x-many-${i}: v`);
  const lineEnd = rng.chance(0.9) ? '\r\n' : rng.pick(['\n', '\r', '\n\r']);
  let text = `${method} ${target} ${version}${lineEnd}${headers.join(lineEnd)}${lineEnd}${lineEnd}${body}`;
  // Cut messages: the server's time-outs must end them.
  if (rng.chance(0.15)) text = text.slice(0, rng.int(1, text.length - 1));
  return { bytes: Buffer.from(text, 'latin1'), summary: JSON.stringify(text.slice(0, 300)), head: method === 'HEAD' };
}

interface WireVerdict {
  status?: number;
  why?: string;
}

async function exchange(url: string, input: WireInput): Promise<WireVerdict> {
  const { socket, closed } = await rawConnect(url, input.bytes);
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HANG_MS)));
  const reply = await Promise.race([closed, hung]);
  clearTimeout(timer);
  if (reply === 'hung') {
    socket.destroy();
    return { why: `connection still open after ${HANG_MS} ms` };
  }
  if (reply.text === '') return {}; // closed without an answer: allowed
  const head = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*\r\n((?:[^\r\n]+\r\n)*)\r\n/.exec(reply.text);
  if (!head) return { why: `not an HTTP answer: ${JSON.stringify(reply.text.slice(0, 200))}` };
  const status = Number(head[1]);
  const length = /^content-length: *(\d+)\r$/im.exec(head[2]!)?.[1];
  if (status < 400 || input.head || length === undefined || length === '0') return { status };
  const body = Buffer.from(reply.text, 'utf8').subarray(Buffer.byteLength(head[0])).subarray(0, Number(length)).toString('utf8');
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  if (typeof json?.error?.message !== 'string' || typeof json?.error?.type !== 'string') {
    return { status, why: `${status} not in the error envelope: ${body.slice(0, 200)}` };
  }
  if (status >= 500 && json.provider === 'gw' && json.error.code !== 'bad_gateway') return { status, why: `${status} without a provider cause: ${body.slice(0, 200)}` };
  return { status };
}

describe('fuzz: seeded raw requests over TCP', function () {
  this.timeout(120_000);
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [WatchPlugin], serve: { headersTimeoutMs: 500, bodyTimeoutMs: 1000 } });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  it(`ends ${COUNT} hostile connections (seed ${SEED}) with an answer in the envelope or a close, in time`, async () => {
    const rng = new Random(SEED);
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    let sent = 0;
    const worker = async () => {
      while (sent < COUNT) {
        sent++;
        const input = makeWireInput(rng, mock.url);
        const verdict = await exchange(gw.url, input);
        const key = String(verdict.status ?? 'closed');
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (verdict.why && failures.length < 10) failures.push(`${verdict.why} ← ${input.summary}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(`      wire fuzz seed ${SEED}: ${sent} connections; by status ${[...statuses].map(([s, n]) => `${s}:${n}`).join(' ')}`);
    expect(failures).to.deep.equal([]);
    expect(unexpected.map((e) => String((e as Error)?.stack ?? e).slice(0, 500)), 'unexpected errors').to.deep.equal([]);
    const after = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
    expect(after.status, after.text).to.equal(200);
  });
});
