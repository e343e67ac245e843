/**
 * GW_MAX_CONNECTIONS: connections beyond the cap are closed as soon as they are accepted, while a
 * stream already answering goes on to its end; freed slots take new clients again.
 */
import { expect } from 'chai';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, startGateway, type TestGateway } from '../helpers/gateway.js';
import { rawConnect, rawRequest } from '../helpers/raw-http.js';

describe('connection cap', function () {
  this.timeout(15_000);
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI({ streamChunkDelayMs: 150 });
    // Time-outs longer than the test: only the cap frees or refuses anything here.
    gw = await startGateway({ serve: { maxConnections: 3, headersTimeoutMs: 10_000, bodyTimeoutMs: 20_000 } });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });

  it('refuses connections over the cap without disturbing an answering stream', async () => {
    const streamed = new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', agent: false, headers: directHeaders(mock) }, resolve);
      req.on('error', reject);
      req.end(JSON.stringify({ ...CHAT_BODY, stream: true }));
    });
    const res = await streamed;
    expect(res.statusCode).to.equal(200);
    let text = '';
    const ended = new Promise<void>((resolve, reject) => {
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', resolve).on('error', reject);
    });

    // Two slow clients fill the cap with the stream.
    const held = await Promise.all([rawConnect(gw.url, 'GET /health HTTP/1.1\r\n'), rawConnect(gw.url, 'GET /health HTTP/1.1\r\n')]);
    try {
      const refused = await rawRequest(gw.url, 'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      expect(refused.text).to.equal('');
      await ended;
      expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
      expect(held.every((h) => !h.socket.destroyed)).to.equal(true);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    // The slots are free again.
    await until(async () => (await rawRequest(gw.url, 'GET /health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n')).status === 200);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
