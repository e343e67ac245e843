/**
 * A client that goes away while its body is being read is a client abort: 499 in the access line,
 * the request logs and the metrics; never a 500, never an `unexpected error` line. The same for
 * streamed uploads and for the fetch front end.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger, definePlugin, Stage, Type } from '../../host/index.js';
import { parsePrometheus } from '../plugins/observe/metrics/prom-text.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';
import { rawConnect } from '../helpers/raw-http.js';
import { RequestLogsService } from '../../plugins/observe/logs/contract.js';


/** Holds requests marked `x-test-hold` in onRequest until their client is gone. */
const HoldUntilGone = definePlugin({
  id: 'test.hold-until-gone',
  options: Type.Object({}),
  apply(api) {
    api.hooks.onRequest.tap({ name: 'test.hold-until-gone', stage: Stage.LATE }, async (ctx) => {
      if (ctx.request.headers['x-test-hold'] === undefined) return;
      const signal = ctx.request.signal;
      if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    });
  },
});

describe('client aborts', function () {
  this.timeout(15_000);
  let mock: MockOpenAI;
  let gw: TestGateway;
  const lines: any[] = [];

  before(async () => {
    mock = await startMockOpenAI();
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    gw = await startGateway({ logger: createLogger('info', sink), plugins: [HoldUntilGone] });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });

  const accessLine = (traceId: string) => lines.find((l) => l.msg === 'request' && l.traceId === traceId);
  const errorLines = () => lines.filter((l) => l.level >= 50 || l.msg === 'unexpected error');
  const requestsWithStatus = async (route: string, status: string) => {
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    return parsePrometheus(text).value('gw_requests_total', { route, status });
  };

  /** Sends a head announcing 1000 bytes and part of the body, then goes away. */
  async function abortMidBody(path: string, traceId: string, headers: string, partial: string): Promise<void> {
    const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-gw-api-key: ${TEST_API_KEY}\r\nx-gw-trace-id: ${traceId}\r\n${headers}content-length: 1000\r\n\r\n`;
    const { socket, closed } = await rawConnect(gw.url, head + partial);
    // Until the gateway has started on it: its access line cannot come before the close.
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await closed;
    await until(() => accessLine(traceId) !== undefined);
  }

  it('records a chat request whose client closes mid-body as 499 in the access line, logs and metrics', async () => {
    const before = await requestsWithStatus('/v1/chat/completions', '499');
    await abortMidBody('/v1/chat/completions', 'abort-mid-body', 'content-type: application/json\r\n', '{"model":"gpt-4o-mini","mess');
    expect(accessLine('abort-mid-body')).to.include({ route: '/v1/chat/completions', status: 499 });
    expect(errorLines()).to.deep.equal([]);
    expect(await requestsWithStatus('/v1/chat/completions', '499')).to.equal(before + 1);
    expect(await requestsWithStatus('/v1/chat/completions', '500')).to.equal(0);
    const logs = gw.gateway.runtime.services.get(RequestLogsService);
    await logs.flush();
    const listed: any = await (await fetch(`${gw.url}/v1/logs?trace_id=abort-mid-body`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json();
    expect(listed.data).to.have.length(1);
    expect(listed.data[0]).to.include({ status: 499, error_code: 'client_closed' });
    expect(mock.requests).to.have.length(0);
  });

  it('records an upload whose client closes mid-body as 499, with no unexpected error', async () => {
    const boundary = 'gwtestboundary';
    const partial = `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\n`
      + 'content-disposition: form-data; name="file"; filename="a.jsonl"\r\ncontent-type: application/octet-stream\r\n\r\n{"a":';
    await abortMidBody('/v1/files', 'abort-upload', `content-type: multipart/form-data; boundary=${boundary}\r\n`, partial);
    expect(accessLine('abort-upload')).to.include({ route: '/v1/files', status: 499 });
    expect(errorLines()).to.deep.equal([]);
    const files: any = await (await fetch(`${gw.url}/v1/files`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json();
    expect(files.data).to.deep.equal([]);
  });

  it('records 499 when the client is gone before the gateway starts reading the body', async () => {
    await abortMidBody('/v1/chat/completions', 'abort-before-read', 'content-type: application/json\r\nx-test-hold: 1\r\n', '{"model":');
    expect(accessLine('abort-before-read')).to.include({ status: 499 });
    expect(errorLines()).to.deep.equal([]);
  });

  it('serves a whole request normally after the aborts', async () => {
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock));
    expect(reply.status).to.equal(200);
  });

  describe('fetch front end', () => {
    /** A request body that sends a little and then fails, as a client connection that drops does. */
    const droppingBody = () => new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"model":"gpt-4o-mini",'));
        setTimeout(() => controller.error(new TypeError('terminated')), 10);
      },
    });

    it('answers a body that fails mid-way as 499 client_closed, not 500', async () => {
      const request = new Request(`${gw.url}/v1/chat/completions`, {
        method: 'POST', headers: directHeaders(mock), body: droppingBody(), duplex: 'half',
      } as RequestInit);
      const response = await gw.gateway.fetch(request);
      expect(response.status).to.equal(499);
      expect(((await response.json()) as any).error.code).to.equal('client_closed');
      expect(errorLines()).to.deep.equal([]);
    });

    it('answers a streamed upload that fails mid-way as 499', async () => {
      const request = new Request(`${gw.url}/v1/files`, {
        method: 'POST', headers: { 'x-gw-api-key': TEST_API_KEY, 'content-type': 'multipart/form-data; boundary=b' },
        body: droppingBody(), duplex: 'half',
      } as RequestInit);
      const response = await gw.gateway.fetch(request);
      expect(response.status).to.equal(499);
      expect(errorLines()).to.deep.equal([]);
    });
  });
});

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
