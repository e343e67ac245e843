/**
 * GET /v1/agent-servers/:id/agent-card against a real @a2a-js/sdk agent: the card of the version
 * the client asks for (v1.0 and v0.3 shapes), every JSON-RPC endpoint rewritten to the gateway's,
 * other transports left out, fetched once per TTL, the agent's credential sent with the fetch.
 * Failure modes: agent down, not a card, not JSON, no JSON-RPC interface (502); outbound host rules.
 */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startA2AAgent, type A2AAgent } from '../../../fixtures/a2a-agent.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, caller, startAgentGateway } from './harness.js';

const TOKEN = 'card-fetch-token-3f9a';

describe('agents.agent-servers: agent cards', () => {
  let agent: A2AAgent;
  let gw: TestGateway;
  let id: string;

  before(async () => {
    agent = await startA2AAgent();
    gw = await startAgentGateway({ options: { cardTtlMs: 60_000 } });
    const made = await call(gw, 'POST', '/v1/agent-servers', { name: 'Echo', slug: 'echo', url: agent.url, auth: { type: 'bearer', token: TOKEN } });
    id = made.json.id;
  });
  after(async () => {
    await gw?.stop();
    await agent?.close();
  });
  beforeEach(() => agent.reset());

  const card = (ref: string, headers: Record<string, string> = {}) => call(gw, 'GET', `/v1/agent-servers/${ref}/agent-card`, undefined, headers);
  const endpoint = () => `${gw.url}/v1/agents/${id}`;

  it('answers the v1.0 card with only JSON-RPC interfaces, each pointing at the gateway', async () => {
    const res = await card(id, { 'a2a-version': '1.0' });
    expect(res.status, res.text).to.equal(200);
    expect(res.json.name).to.equal('Echo agent');
    expect(res.json.supportedInterfaces).to.deep.equal([
      { url: endpoint(), protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: endpoint(), protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ]);
    expect(res.text).not.to.include(agent.url);
    // What the gateway does not proxy is switched off; the gateway key is the card's security.
    expect(res.json.capabilities).to.include({ pushNotifications: false, extendedAgentCard: false, streaming: true });
    expect(res.json.securitySchemes).to.deep.equal({ gatewayApiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-gw-api-key', description: 'The gateway API key' } } });
    expect(res.json.securityRequirements).to.deep.equal([{ schemes: { gatewayApiKey: { list: [] } } }]);
    expect(res.json).not.to.have.property('signatures');
    expect(agent.cardFetches.at(-1)!.version).to.equal('1.0');
  });

  it('answers the v0.3 card (no A2A-Version, or 0.3) with url, preferredTransport and additionalInterfaces rewritten', async () => {
    const asked: Record<string, string>[] = [{}, { 'a2a-version': '0.3' }];
    for (const headers of asked) {
      const res = await card('echo', headers);
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.include({ url: endpoint(), preferredTransport: 'JSONRPC', protocolVersion: '0.3', supportsAuthenticatedExtendedCard: false });
      if (res.json.additionalInterfaces) expect(res.json.additionalInterfaces).to.deep.equal([{ url: endpoint(), transport: 'JSONRPC' }]);
      // The v1.0 interfaces the SDK embeds in a v0.3 card are rewritten too.
      for (const i of res.json.supportedInterfaces ?? []) expect(i).to.include({ url: endpoint(), protocolBinding: 'JSONRPC' });
      expect(res.json.security).to.deep.equal([{ gatewayApiKey: [] }]);
      expect(res.text).not.to.include(agent.url);
    }
    expect(agent.cardFetches.map((f) => f.version)).to.deep.equal([undefined, '0.3']);
  });

  it('fetches a card once per TTL and version, with the agent\'s credential and never the client\'s key', async () => {
    const other = await call(gw, 'POST', '/v1/agent-servers', { name: 'Cached', slug: 'cached', url: agent.url });
    for (let i = 0; i < 3; i++) expect((await card(other.json.id, { 'a2a-version': '1.0' })).status).to.equal(200);
    expect(agent.cardFetches).to.have.length(1);
    await card(other.json.id, { 'a2a-version': '0.3' });
    expect(agent.cardFetches).to.have.length(2);
    // A change of the server is a new revision: fetched again.
    await call(gw, 'PUT', `/v1/agent-servers/${other.json.id}`, { auth: { type: 'bearer', token: TOKEN } });
    await card(other.json.id, { 'a2a-version': '1.0' });
    expect(agent.cardFetches).to.have.length(3);
    const sent = agent.cardFetches.at(-1)!.headers;
    expect(sent['authorization']).to.equal(`Bearer ${TOKEN}`);
    expect(sent['x-gw-api-key']).to.equal(undefined);
  });

  it('builds the endpoint from publicBaseUrl when set', async () => {
    const pinned = await startAgentGateway({ options: { publicBaseUrl: 'https://gw.example.com/' } });
    try {
      const made = await call(pinned, 'POST', '/v1/agent-servers', { name: 'E', slug: 'e', url: agent.url });
      const res = await call(pinned, 'GET', `/v1/agent-servers/${made.json.id}/agent-card`, undefined, { 'a2a-version': '1.0' });
      expect(res.json.supportedInterfaces[0].url).to.equal(`https://gw.example.com/v1/agents/${made.json.id}`);
    } finally {
      await pinned.stop();
    }
  });

  it('needs agents.invoke or agent_servers.read; a server the caller may not use is a 404', async () => {
    expect((await card(id, as(caller([])))).status).to.equal(403);
    expect((await card(id, as(caller(['agent_servers.list'])))).status).to.equal(403);
    expect((await card(id, as(caller(['agents.invoke'])))).status).to.equal(200);
    expect((await card(id, as(caller(['agent_servers.read'])))).status).to.equal(200);
    const limited = await call(gw, 'POST', '/v1/agent-servers', { name: 'W', slug: 'only-ws-a', url: agent.url, workspace_id: 'ws-a' });
    expect((await card(limited.json.id, as(caller(['agents.invoke'], { workspaceId: 'ws-b' })))).status).to.equal(404);
    expect((await card('no-such-agent')).status).to.equal(404);
  });

  it('refuses an A2A-Version that is not a version', async () => {
    const res = await card(id, { 'a2a-version': 'latest' });
    expect(res.status).to.equal(400);
    expect(res.json.error).to.include({ param: 'a2a-version' });
  });

  describe('a broken agent answers 502 in the envelope, and the gateway goes on', () => {
    const cases: [A2AAgent['mode'], RegExp][] = [
      ['garbage-card', /not an A2A agent card/],
      ['html-card', /not JSON/],
      ['no-jsonrpc-card', /no JSON-RPC interface/],
    ];
    for (const [mode, message] of cases) {
      it(mode, async () => {
        const made = await call(gw, 'POST', '/v1/agent-servers', { name: mode, slug: `broken-${mode}`, url: agent.url });
        agent.mode = mode;
        const res = await card(made.json.id, { 'a2a-version': '1.0' });
        expect(res.status, res.text).to.equal(502);
        expect(res.json.error.message).to.match(message);
        expect(res.json.error.message).to.include(`broken-${mode}`);
        expect(res.text).not.to.include(TOKEN);
        // Failures are not kept: a repaired agent is seen at once.
        agent.mode = 'normal';
        expect((await card(made.json.id, { 'a2a-version': '1.0' })).status).to.equal(200);
      });
    }

    it('an agent that is down', async () => {
      const gone = await startA2AAgent();
      await gone.close();
      const made = await call(gw, 'POST', '/v1/agent-servers', { name: 'Gone', slug: 'gone', url: gone.url });
      const res = await card(made.json.id);
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.match(/"gone" is unreachable/);
    });

    it('an agent answering 404 for its card', async () => {
      const made = await call(gw, 'POST', '/v1/agent-servers', { name: 'Wrong', slug: 'wrong-path', url: `${agent.url}/nothing-here` });
      const res = await card(made.json.id);
      expect(res.status).to.equal(502);
      expect(res.json.error.message).to.match(/HTTP 404 for its agent card/);
    });
  });

  it('an agent that does not answer within requestTimeoutMs: 408 naming it', async () => {
    const silent = createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const quick = await startAgentGateway({ options: { requestTimeoutMs: 200 } });
    try {
      const made = await call(quick, 'POST', '/v1/agent-servers', { name: 'Silent', slug: 'silent', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` });
      const started = Date.now();
      const res = await call(quick, 'GET', `/v1/agent-servers/${made.json.id}/agent-card`);
      expect(res.status, res.text).to.equal(408);
      expect(res.json.error.message).to.match(/"silent" did not answer within 200 ms/);
      expect(Date.now() - started).to.be.below(5000);
    } finally {
      await quick.stop();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('applies the outbound host rules to card fetches', async () => {
    const denied = await startAgentGateway({ env: { GW_OUTBOUND_DENY: '127.0.0.0/8' } });
    try {
      const made = await call(denied, 'POST', '/v1/agent-servers', { name: 'E', slug: 'e', url: agent.url });
      const res = await call(denied, 'GET', `/v1/agent-servers/${made.json.id}/agent-card`);
      expect(res.status, res.text).to.equal(403);
      expect(res.json.error.code).to.equal('outbound_host_denied');
      expect(agent.cardFetches).to.have.length(0);
    } finally {
      await denied.stop();
    }
  });
});
