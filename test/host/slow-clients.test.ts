/**
 * Slow clients against the real server over raw sockets: headers and bodies that do not arrive in
 * time are answered 408 in the envelope and their connections closed; answering streams are not
 * cut; slow clients do not stall others.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { createLogger } from '../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { startMockOpenAIBatches, type MockOpenAIBatches } from '../fixtures/mock-openai-batches.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { rawConnect, rawRequest } from '../helpers/raw-http.js';

const HEADERS_TIMEOUT_MS = 300;
const BODY_TIMEOUT_MS = 700;

/** A chat request's head with a JSON body of `length` bytes announced. */
function chatHead(length: number | 'chunked'): string {
  const framing = length === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${length}`;
  return `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nx-gw-api-key: ${TEST_API_KEY}\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`;
}

describe('slow clients', function () {
  this.timeout(15_000);
  let mock: MockOpenAI;
  let files: MockOpenAIBatches;
  let gw: TestGateway;
  const lines: any[] = [];

  before(async () => {
    mock = await startMockOpenAI({ streamChunkDelayMs: 300 });
    files = await startMockOpenAIBatches();
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    gw = await startGateway({
      logger: createLogger('info', sink),
      serve: { headersTimeoutMs: HEADERS_TIMEOUT_MS, bodyTimeoutMs: BODY_TIMEOUT_MS },
    });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
    await files.close();
  });

  const requestLines = () => lines.filter((l) => l.msg === 'request');

  it('answers 408 in the envelope and closes a connection whose headers stop half-way', async () => {
    const reply = await rawRequest(gw.url, 'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nx-gw-a');
    expect(reply.status).to.equal(408);
    expect(reply.json).to.deep.equal({
      error: { message: `request headers were not complete within ${HEADERS_TIMEOUT_MS} ms`, type: 'timeout_error', param: null, code: 'headers_timeout' },
      provider: 'gw',
    });
    expect(reply.text.toLowerCase()).to.contain('connection: close');
  });

  it('closes a connection that sends nothing at all', async () => {
    const reply = await rawRequest(gw.url, '');
    expect(reply.status).to.equal(408);
    expect(reply.json.error.code).to.equal('headers_timeout');
  });

  it('answers 408 and closes when the body is shorter than its content-length, and records 408', async () => {
    const before = requestLines().length;
    const reply = await rawRequest(gw.url, chatHead(100) + '{"model":"gpt-4o-mini"');
    expect(reply.status).to.equal(408);
    expect(reply.json.error).to.deep.equal({
      message: `body: the whole request did not arrive within ${BODY_TIMEOUT_MS} ms`, type: 'timeout_error', param: 'body', code: 'body_timeout',
    });
    await until(() => requestLines().length > before);
    expect(requestLines().slice(before)).to.have.length(1);
    expect(requestLines()[before]).to.include({ route: '/v1/chat/completions', status: 408 });
  });

  it('answers 408 and closes a chunked body that never ends, however steadily it trickles', async () => {
    const { socket, closed } = await rawConnect(gw.url, chatHead('chunked'));
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('1\r\n \r\n');
    }, 50);
    try {
      const reply = await closed;
      expect(reply.status).to.equal(408);
      expect(reply.json.error.code).to.equal('body_timeout');
    } finally {
      clearInterval(trickle);
    }
  });

  for (const [where, headers] of [
    ['stored by the gateway', ''],
    ['forwarded to a provider', 'x-gw-provider: openai\r\nauthorization: Bearer sk-test\r\nx-gw-custom-host: {files}/v1\r\n'],
  ] as const) {
    it(`answers 408 for an upload ${where} that stops half-way, and records 408`, async () => {
      const before = requestLines().length;
      const boundary = 'gwslowupload';
      const head = `POST /v1/files HTTP/1.1\r\nhost: 127.0.0.1\r\nx-gw-api-key: ${TEST_API_KEY}\r\n${headers.replace('{files}', files.url)}`
        + `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: 5000\r\n\r\n`;
      const part = `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\n`
        + 'content-disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{"a":';
      const reply = await rawRequest(gw.url, head + part);
      expect(reply.status).to.equal(408);
      expect(reply.json.error.code).to.equal('body_timeout');
      await until(() => requestLines().length > before);
      expect(requestLines()[before]).to.include({ route: '/v1/files', status: 408 });
      expect(lines.filter((l) => l.level >= 50)).to.deep.equal([]);
    });
  }

  it('does not cut a stream that answers for longer than the body timeout', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ ...CHAT_BODY, stream: true });
      const req = httpRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', agent: false, headers: directHeaders(mock) }, (res) => {
        let out = '';
        res.setEncoding('utf8').on('data', (c: string) => (out += c)).on('end', () => resolve(out)).on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    // The mock sends a chunk every 300 ms: the stream outlives the body timeout several times over.
    expect(text.match(/chat\.completion\.chunk/g)?.length).to.be.greaterThan(2);
    expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
  });

  it('keeps a connection idle between requests beyond the headers timeout (keep-alive is not a slow header)', async () => {
    const { socket, closed } = await rawConnect(gw.url, 'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
    await until(() => received.includes('"status":"ok"'));
    await new Promise((r) => setTimeout(r, HEADERS_TIMEOUT_MS * 3));
    expect(socket.destroyed).to.equal(false);
    socket.write('GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n');
    const reply = await closed;
    expect(reply.text.match(/HTTP\/1\.1 200/g)).to.have.length(2);
  });

  it('serves other clients while many slow clients hold connections', async () => {
    // A gateway whose time-outs outlast the test: the slow clients are still held while others are served.
    const patient = await startGateway({ serve: { headersTimeoutMs: 10_000, bodyTimeoutMs: 20_000 } });
    const slow = await Promise.all(Array.from({ length: 60 }, (_, i) =>
      rawConnect(patient.url, i % 2 === 0 ? 'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n' : chatHead(1000) + '{')));
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => postJson(patient.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock))));
      expect(replies.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
      expect(slow.filter((s) => s.socket.destroyed)).to.have.length(0);
    } finally {
      for (const s of slow) s.socket.destroy();
      await patient.stop();
    }
  });
});

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
