/** Embedding: the gateway inside a user's own node:http server beside their own routes, and via fetch(). */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { createGateway, type Gateway } from '../../host/index.js';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, TEST_API_KEY } from '../helpers/gateway.js';

describe('embedding the gateway', () => {
  let mock: MockOpenAI;
  let gateway: Gateway;
  let server: Server;
  let base: string;
  let dataDir: string;

  before(async () => {
    mock = await startMockOpenAI();
    dataDir = await mkdtemp(join(tmpdir(), 'gw-embed-'));
    gateway = await createGateway({ env: { GW_DATA_DIR: dataDir, GW_BOOTSTRAP_API_KEY: TEST_API_KEY, GW_LOG_LEVEL: 'silent' } });
    server = createServer((req, res) => {
      if (req.url === '/my/own/route') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('mine');
        return;
      }
      gateway.handle(req, res, () => res.writeHead(418).end('not the gateway either'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await gateway.close();
    await mock.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the user route and the gateway routes from one server', async () => {
    expect(await (await fetch(`${base}/my/own/route`)).text()).to.equal('mine');
    const client = new OpenAI({
      apiKey: 'sk-test', baseURL: `${base}/v1`, maxRetries: 0,
      defaultHeaders: { 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
    });
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'embedded' }] });
    expect(answer.choices[0]!.message.content).to.equal('echo: embedded');
  });

  it('hands unknown paths to next() when one is given', async () => {
    const res = await fetch(`${base}/elsewhere`);
    expect(res.status).to.equal(418);
  });

  it('answers through the Web-standard fetch() handler, streams included', async () => {
    const res = await gateway.fetch(new Request('http://gw.local/v1/chat/completions', {
      method: 'POST', headers: directHeaders(mock), body: JSON.stringify({ ...CHAT_BODY, stream: true }),
    }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/event-stream');
    const text = await res.text();
    expect(text.trim().endsWith('data: [DONE]')).to.equal(true);
    const bad = await gateway.fetch(new Request('http://gw.local/v1/chat/completions', { method: 'POST', headers: directHeaders(mock), body: '{}' }));
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).to.equal('body.model: is required');
  });
});
