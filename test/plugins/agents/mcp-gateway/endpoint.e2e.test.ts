/**
 * agents.mcp-gateway: the /v1/mcp/:server endpoint with the official MCP SDK on both sides, the
 * upstream in JSON and in SSE mode: initialise, tools filtered and refused, the server's secret kept
 * from the client and the gateway key from the server, protocol versions, the GET stream.
 */
import { expect } from 'chai';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockMcp, type MockMcp } from '../../../fixtures/mock-mcp-server.js';
import { connect, INITIALIZE, rawPost, registerServer, startMcpGateway, textOf } from './harness.js';

for (const mode of ['json', 'sse'] as const) {
  describe(`agents.mcp-gateway: endpoint (upstream answers ${mode})`, () => {
    let gw: TestGateway;
    let upstream: MockMcp;

    before(async () => {
      upstream = await startMockMcp({ json: mode === 'json', authorization: 'Bearer upstream-secret-token' });
      gw = await startMcpGateway();
      await registerServer(gw, { slug: 'docs', url: upstream.url, auth: { type: 'bearer', token: 'upstream-secret-token' }, denied_tools: ['secret_tool'] });
      await registerServer(gw, { slug: 'only-echo', url: upstream.url, auth: { type: 'bearer', token: 'upstream-secret-token' }, allowed_tools: ['echo', 'secret_tool'], denied_tools: ['secret_tool'] });
    });
    after(async () => {
      await gw?.stop();
      await upstream?.close();
    });

    it('initialises with the gateway key as a bearer and lists the tools the server allows', async () => {
      const { client, transport } = await connect(gw, 'docs');
      expect(transport.sessionId).to.be.a('string');
      expect(upstream.sessions()).to.not.include(transport.sessionId, 'the client sees the gateway\'s session id, not the upstream\'s');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(['add', 'echo', 'leak', 'slow', 'whoami']);
      const only = await connect(gw, 'only-echo');
      expect((await only.client.listTools()).tools.map((t) => t.name)).to.deep.equal(['echo']);
      await client.close();
      await only.client.close();
    });

    it('calls an allowed tool and answers its result', async () => {
      const { client } = await connect(gw, 'docs');
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
      expect(textOf(result)).to.equal('42');
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      expect(textOf(echoed)).to.equal('hello');
      await client.close();
    });

    it('refuses a denied tool and one outside allowed_tools with a JSON-RPC error, without calling upstream', async () => {
      const before = upstream.toolRuns.length;
      const { client } = await connect(gw, 'docs');
      const denied = await client.callTool({ name: 'secret_tool', arguments: {} }).then(() => undefined, (e: { code?: number; message: string }) => e);
      expect(denied?.code).to.equal(-32602);
      expect(denied?.message).to.contain('secret_tool').and.contain('not allowed');
      const only = await connect(gw, 'only-echo');
      const outside = await only.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }).then(() => undefined, (e: { code?: number; message: string }) => e);
      expect(outside?.code).to.equal(-32602);
      expect(outside?.message).to.contain('"add"');
      expect(upstream.toolRuns.slice(before).map((r) => r.name)).to.deep.equal([]);
      await client.close();
      await only.client.close();
    });

    it('keeps the upstream secret from the client and the gateway key from the upstream', async () => {
      const seen = upstream.requests.length;
      const init = await rawPost(gw, 'docs', INITIALIZE(), { authorization: `Bearer ${TEST_API_KEY}` });
      expect(init.status, init.text).to.equal(200);
      expect(init.text).to.not.contain('upstream-secret-token');
      for (const [name, value] of init.headers) expect(`${name}: ${value}`).to.not.contain('upstream-secret-token');
      const { client } = await connect(gw, 'docs', { 'x-gw-metadata': '{"team":"a"}' });
      await client.listTools();
      await client.close();
      const sent = upstream.requests.slice(seen);
      expect(sent.length).to.be.greaterThan(2);
      for (const r of sent) {
        expect(r.headers['authorization']).to.equal('Bearer upstream-secret-token');
        expect(JSON.stringify(r.headers)).to.not.contain(TEST_API_KEY);
        expect(Object.keys(r.headers).filter((h) => h.startsWith('x-gw-'))).to.deep.equal([]);
      }
    });

    it('negotiates 2025-06-18 with a newer client and passes MCP-Protocol-Version on', async () => {
      const seen = upstream.requests.length;
      const { client, transport } = await connect(gw, 'docs');
      expect(transport.protocolVersion).to.equal('2025-06-18');
      await client.listTools();
      const later = upstream.requests.slice(seen).filter((r) => r.headers['mcp-session-id'] !== undefined);
      expect(later.length).to.be.greaterThan(0);
      for (const r of later) expect(r.headers['mcp-protocol-version']).to.equal('2025-06-18');
      await client.close();
    });

    it('refuses an unsupported MCP-Protocol-Version with 400 and a missing session with 400, an unknown one with 404', async () => {
      const init = await rawPost(gw, 'docs', INITIALIZE());
      const session = init.headers.get('mcp-session-id')!;
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const bad = await rawPost(gw, 'docs', list, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' });
      expect(bad.status).to.equal(400);
      expect(bad.json.error.message).to.contain('mcp-protocol-version').and.contain('1999-01-01');
      const none = await rawPost(gw, 'docs', list);
      expect(none.status).to.equal(400);
      expect(none.json.error.message).to.contain('mcp-session-id');
      const unknown = await rawPost(gw, 'docs', list, { 'mcp-session-id': 'not-a-session' });
      expect(unknown.status).to.equal(404);
      expect(unknown.json).to.deep.include({ jsonrpc: '2.0', id: null });
    });

    it('answers 404 for a server that does not exist or the caller may not use', async () => {
      const missing = await rawPost(gw, 'nope', INITIALIZE());
      expect(missing.status).to.equal(404);
      expect(missing.json.error.message).to.contain('nope');
    });
  });
}

describe('agents.mcp-gateway: protocol 2025-03-26', () => {
  let gw: TestGateway;
  let upstream: MockMcp;

  before(async () => {
    upstream = await startMockMcp();
    gw = await startMcpGateway({ options: { protocolVersions: ['2025-03-26'] } });
    await registerServer(gw, { slug: 'old', url: upstream.url });
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('offers 2025-03-26 to a client that asks for newer, and serves the session in it', async () => {
    const seen = upstream.requests.length;
    const { client, transport } = await connect(gw, 'old');
    expect(transport.protocolVersion).to.equal('2025-03-26');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old times' } }))).to.equal('old times');
    const later = upstream.requests.slice(seen).filter((r) => r.headers['mcp-session-id'] !== undefined);
    for (const r of later) expect(r.headers['mcp-protocol-version']).to.equal('2025-03-26');
    await client.close();
  });

  it('answers a batch (2025-03-26) with an array, refusals included', async () => {
    const init = await rawPost(gw, 'old', INITIALIZE('2025-03-26'));
    const session = init.headers.get('mcp-session-id')!;
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: { text: 'one' } } },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: '' } },
    ]);
    const reply = await rawPost(gw, 'old', batch, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' });
    expect(reply.status, reply.text).to.equal(200);
    const events = reply.text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    const messages = reply.headers.get('content-type')?.startsWith('text/event-stream') ? events : reply.json;
    const byId = new Map((messages as { id: string }[]).map((m) => [m.id, m]));
    expect((byId.get('a') as any).result.content[0].text).to.equal('one');
    expect((byId.get('b') as any).error.code).to.equal(-32602);
    expect((byId.get('b') as any).error.message).to.contain('params.name');
  });
});
