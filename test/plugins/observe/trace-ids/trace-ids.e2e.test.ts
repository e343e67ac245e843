/**
 * observe.trace-ids: trace and span ids reach logs, exported spans and answer headers, so they must be
 * printable ASCII of bounded length. Bytes fetch cannot send (tabs, obs-text) go over a raw socket.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';

interface RawReply {
  status: number;
  body: any;
}

/** One HTTP/1.1 request written byte for byte (latin1), the answer read until the server closes. */
function rawPost(url: string, path: string, extraHeaderLines: string[], body: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, payload = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]);
      let parsed: unknown;
      try {
        parsed = JSON.parse(payload);
      } catch {
        parsed = undefined;
      }
      resolve({ status, body: parsed });
    });
    const lines = [
      `POST ${path} HTTP/1.1`, `host: ${hostname}:${port}`, 'connection: close', 'content-type: application/json',
      `content-length: ${Buffer.byteLength(body)}`, ...extraHeaderLines,
    ];
    socket.end(Buffer.from(lines.join('\r\n') + '\r\n\r\n' + body, 'latin1'));
  });
}

describe('observe.trace-ids: trace and span ids', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway();
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });

  const chat = (headers: Record<string, string>) => postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, headers));

  it('accepts and echoes a trace id of 128 printable characters', async () => {
    const id = '!~' + 'a'.repeat(124) + '#~';
    const reply = await chat({ 'x-gw-trace-id': id, 'x-gw-span-id': 'span-1', 'x-gw-parent-span-id': 'root', 'x-gw-span-name': 'my span' });
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.headers.get('x-gw-trace-id')).to.equal(id);
  });

  it('refuses a trace id of 129 characters with a 400 naming the header and the rule', async () => {
    const before = mock.requests.length;
    const reply = await chat({ 'x-gw-trace-id': 'a'.repeat(129) });
    expect(reply.status).to.equal(400);
    expect(reply.json.error).to.deep.equal({
      message: 'header x-gw-trace-id: must be 1 to 128 printable ASCII characters (0x21 to 0x7e, no spaces)',
      type: 'invalid_request_error', param: 'x-gw-trace-id', code: 'invalid_header',
    });
    expect(mock.requests.length, 'the provider is not called').to.equal(before);
  });

  it('refuses a space inside an id, for the trace, span and parent span headers', async () => {
    for (const header of ['x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id']) {
      const reply = await chat({ [header]: 'two words' });
      expect(reply.status, header).to.equal(400);
      expect(reply.json.error.param, header).to.equal(header);
      expect(reply.json.error.message, header).to.contain('printable ASCII');
    }
  });

  it('refuses a span name over 256 characters, and accepts one with spaces', async () => {
    const long = await chat({ 'x-gw-span-name': 'n'.repeat(257) });
    expect(long.status).to.equal(400);
    expect(long.json.error).to.include({ param: 'x-gw-span-name', code: 'invalid_header' });
    const spaced = await chat({ 'x-gw-span-name': 'a span with spaces' });
    expect(spaced.status, spaced.text).to.equal(200);
  });

  it('refuses bytes past ASCII and a tab inside a trace id, sent raw', async () => {
    for (const value of ['abc\xff', 'caf\xe9', 'a\tb']) {
      const reply = await rawPost(gw.url, '/v1/chat/completions', [
        `x-gw-api-key: ${TEST_API_KEY}`, 'x-gw-provider: openai', 'authorization: Bearer sk-test',
        `x-gw-custom-host: ${mock.url}/v1`, `x-gw-trace-id: ${value}`,
      ], JSON.stringify(CHAT_BODY));
      expect(reply.status, JSON.stringify(value)).to.equal(400);
      expect(reply.body.error).to.include({ param: 'x-gw-trace-id', code: 'invalid_header' });
    }
  });

  it('a refused id does not stall others: the next request with a good id passes', async () => {
    const [bad, good] = await Promise.all([chat({ 'x-gw-span-id': 'x'.repeat(200) }), chat({ 'x-gw-trace-id': 'fine-id' })]);
    expect(bad.status).to.equal(400);
    expect(good.status).to.equal(200);
    expect(good.headers.get('x-gw-trace-id')).to.equal('fine-id');
  });
});
