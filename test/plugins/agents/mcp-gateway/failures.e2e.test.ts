/**
 * agents.mcp-gateway when things go wrong: upstreams down, failing or slow; malformed and oversized
 * client messages; missing or wrong gateway keys; the GET stream and DELETE of a session; an OAuth2
 * upstream that refuses a cached token (dropped, fetched again, retried once).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockMcp, type MockMcp } from '../../../fixtures/mock-mcp-server.js';
import { connect, INITIALIZE, rawPost, registerServer, startMcpGateway, textOf } from './harness.js';

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('agents.mcp-gateway: failures', () => {
  let gw: TestGateway;
  let upstream: MockMcp;
  let stateless: MockMcp;
  let failing: Server;

  before(async () => {
    upstream = await startMockMcp();
    stateless = await startMockMcp({ stateless: true, json: true });
    const broken = await listen((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded: internal detail'));
    failing = broken.server;
    gw = await startMcpGateway({ options: { maxBodyBytes: 4096 } });
    await registerServer(gw, { slug: 'live', url: upstream.url });
    await registerServer(gw, { slug: 'stateless', url: stateless.url });
    await registerServer(gw, { slug: 'down', url: await closedPortUrl() });
    await registerServer(gw, { slug: 'broken', url: `${broken.url}/mcp` });
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
    await stateless?.close();
    failing?.closeAllConnections();
    await new Promise<void>((resolve) => failing?.close(() => resolve()));
  });

  it('answers 502 with a JSON-RPC error naming the server when it is unreachable, and keeps serving others', async () => {
    const down = await rawPost(gw, 'down', INITIALIZE());
    expect(down.status).to.equal(502);
    expect(down.json).to.deep.include({ jsonrpc: '2.0', id: null });
    expect(down.json.error.code).to.equal(-32003);
    expect(down.json.error.message).to.contain('down').and.contain('unreachable');
    // Also the gateway's error envelope: the upstream is the cause.
    expect(down.json).to.deep.include({ provider: 'down' });
    expect(down.json.error).to.include({ type: 'api_error' });
    expect(down.json.error.data).to.deep.equal({ code: 'bad_gateway', param: null });
    const { client } = await connect(gw, 'live');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).to.equal('still here');
    await client.close();
  });

  it('answers 502 for an upstream 5xx without passing its body on', async () => {
    const broken = await rawPost(gw, 'broken', INITIALIZE());
    expect(broken.status).to.equal(502);
    expect(broken.json.error.message).to.contain('broken').and.contain('500');
    expect(broken.text).to.not.contain('internal detail');
  });

  it('answers a malformed message with 400 and a JSON-RPC error naming what is wrong', async () => {
    const parse = await rawPost(gw, 'live', '{"jsonrpc": "2.0", "id": 1, "method":');
    expect(parse.status).to.equal(400);
    expect(parse.json.error.code).to.equal(-32700);
    expect(parse.json.error.message).to.contain('Parse error');
    expect(parse.json.error.data).to.deep.include({ param: 'body' });
    expect(parse.json).to.deep.include({ provider: 'gw' });
    expect(parse.json.error).to.include({ type: 'invalid_request_error', param: 'body' });
    const version = await rawPost(gw, 'live', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }));
    expect(version.status).to.equal(400);
    expect(version.json.error.code).to.equal(-32600);
    expect(version.json.error.message).to.contain('body.jsonrpc').and.contain('"2.0"');
    const empty = await rawPost(gw, 'live', '[]');
    expect(empty.status).to.equal(400);
    expect(empty.json.error.message).to.contain('empty batch');
    const scalar = await rawPost(gw, 'live', '42');
    expect(scalar.status).to.equal(400);
    const initInBatch = await rawPost(gw, 'live', `[${INITIALIZE()}, ${INITIALIZE()}]`);
    expect(initInBatch.status).to.equal(400);
    expect(initInBatch.json.error.message).to.contain('initialize');
  });

  it('answers an oversized message with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(10_000) } } });
    const reply = await rawPost(gw, 'live', big);
    expect(reply.status).to.equal(413);
    expect(reply.json.error.message).to.contain('4096 bytes');
  });

  it('refuses a request without a gateway key, or with an unknown one, and never echoes it', async () => {
    const none = await fetch(`${gw.url}/v1/mcp/live`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: INITIALIZE() });
    expect(none.status).to.equal(401);
    expect((await none.json() as any).error.message).to.contain('Authorization: Bearer');
    const wrong = await fetch(`${gw.url}/v1/mcp/live`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer gw-wrong-secret' }, body: INITIALIZE() });
    expect(wrong.status).to.equal(401);
    expect(await wrong.text()).to.not.contain('gw-wrong-secret');
  });

  it('does not let a slow tool call stall other sessions', async () => {
    const a = await connect(gw, 'live');
    const b = await connect(gw, 'live');
    const started = Date.now();
    let slowDone = 0;
    const slow = a.client.callTool({ name: 'slow', arguments: { ms: 1500 } }).then((r) => {
      slowDone = Date.now();
      return r;
    });
    const quick = await b.client.callTool({ name: 'echo', arguments: { text: 'quick' } });
    const quickDone = Date.now();
    expect(textOf(quick)).to.equal('quick');
    expect(quickDone - started).to.be.lessThan(1000);
    expect(slowDone).to.equal(0);
    expect(textOf(await slow)).to.equal('slept 1500');
    await a.client.close();
    await b.client.close();
  });

  it('relays the server\'s GET stream as it comes, and 405 from a server without one', async () => {
    const init = await rawPost(gw, 'live', INITIALIZE());
    const session = init.headers.get('mcp-session-id')!;
    await rawPost(gw, 'live', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), { 'mcp-session-id': session });
    const controller = new AbortController();
    const stream = await fetch(`${gw.url}/v1/mcp/live`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}`, accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      signal: controller.signal,
    });
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.contain('text/event-stream');
    expect(stream.headers.get('mcp-session-id')).to.equal(session);
    const reader = stream.body!.getReader();
    // The upstream's standalone stream is open once the GET reached it.
    await new Promise((r) => setTimeout(r, 100));
    await upstream.notifyAll('hello-from-upstream');
    let seen = '';
    const decoder = new TextDecoder();
    while (!seen.includes('hello-from-upstream')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).to.contain('notifications/message').and.contain('hello-from-upstream');
    controller.abort();

    const statelessInit = await rawPost(gw, 'stateless', INITIALIZE());
    const statelessSession = statelessInit.headers.get('mcp-session-id')!;
    const none = await fetch(`${gw.url}/v1/mcp/stateless`, { headers: { authorization: `Bearer ${TEST_API_KEY}`, accept: 'text/event-stream', 'mcp-session-id': statelessSession } });
    expect(none.status).to.equal(405);
  });

  it('ends a session on DELETE, upstream too; the session then answers 404', async () => {
    const init = await rawPost(gw, 'live', INITIALIZE());
    const session = init.headers.get('mcp-session-id')!;
    const upstreamBefore = upstream.closedSessions.length;
    const ended = await fetch(`${gw.url}/v1/mcp/live`, { method: 'DELETE', headers: { authorization: `Bearer ${TEST_API_KEY}`, 'mcp-session-id': session } });
    expect(ended.status).to.equal(200);
    expect(upstream.closedSessions.length).to.equal(upstreamBefore + 1);
    const after = await rawPost(gw, 'live', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': session });
    expect(after.status).to.equal(404);
    const again = await fetch(`${gw.url}/v1/mcp/live`, { method: 'DELETE', headers: { authorization: `Bearer ${TEST_API_KEY}`, 'mcp-session-id': session } });
    expect(again.status).to.equal(404);
  });

  it('answers 404 and ends the session when the upstream forgot it', async () => {
    const { client, transport } = await connect(gw, 'live');
    await client.listTools();
    // The upstream restarts: its sessions are gone.
    await upstream.forgetSessions();
    const lost = await rawPost(gw, 'live', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), { 'mcp-session-id': transport.sessionId! });
    expect(lost.status).to.equal(404);
    expect(lost.json.error.message).to.contain('initialize again');
    // Ended here too: the gateway does not ask the upstream again.
    const seen = upstream.requests.length;
    const still = await rawPost(gw, 'live', JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), { 'mcp-session-id': transport.sessionId! });
    expect(still.status).to.equal(404);
    expect(upstream.requests.length).to.equal(seen);
  });
});

describe('agents.mcp-gateway: OAuth2 upstream', () => {
  let gw: TestGateway;
  let upstream: MockMcp;
  let tokens: Server;
  let issued = 0;

  before(async () => {
    const tokenServer = await listen((_req, res) => {
      issued++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 3600 }));
    });
    tokens = tokenServer.server;
    // Only the newest token is good: the first one is "revoked" once a second exists.
    upstream = await startMockMcp({ json: true, authorize: (auth) => auth === `Bearer tok-${Math.max(issued, 2)}` });
    gw = await startMcpGateway();
    await registerServer(gw, {
      slug: 'oauth', url: upstream.url,
      auth: { type: 'oauth2_client_credentials', token_url: `${tokenServer.url}/token`, client_id: 'gw', client_secret: 'client-secret-value' },
    });
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
    tokens?.closeAllConnections();
    await new Promise<void>((resolve) => tokens?.close(() => resolve()));
  });

  it('drops a token the upstream refuses with 401, fetches a new one and retries once', async () => {
    const { client } = await connect(gw, 'oauth');
    expect(issued).to.equal(2);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'authorised' } }))).to.equal('authorised');
    expect(upstream.requests.at(-1)?.headers['authorization']).to.equal('Bearer tok-2');
    expect(JSON.stringify(upstream.requests.map((r) => r.headers))).to.not.contain('client-secret-value');
    await client.close();
  });
});
