/**
 * agents.mcp-gateway: connections. A caller's sessions with a server form its connection; listing
 * pages them; deleting one ends its sessions upstream and here (the old session id answers 404, the
 * client initialises again). Who may act on whose connections; `user_bearer` servers keep each
 * caller's own upstream token on its connection.
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import type { Principal } from '../../../../core/index.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { startMockMcp, type MockMcp } from '../../../fixtures/mock-mcp-server.js';
import { as, call, connect, INITIALIZE, rawPost, registerServer, startMcpGateway, textOf } from './harness.js';

const person = (userId: string, role: string, extra: Partial<Principal> = {}) =>
  as({ keyId: `key-${userId}`, type: 'workspace-user', role, userId, workspaceId: 'ws-1', ...extra });

describe('agents.mcp-gateway: connections', () => {
  let gw: TestGateway;
  let upstream: MockMcp;
  let serverId: string;

  before(async () => {
    upstream = await startMockMcp();
    gw = await startMcpGateway();
    serverId = (await registerServer(gw, { slug: 'conn', url: upstream.url })).id;
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('ends a deleted connection\'s sessions upstream and here: the old session answers 404, a new initialise works', async () => {
    const alice = person('alice', 'member');
    const { client, transport } = await connect(gw, 'conn', alice);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).to.equal('before');
    const upstreamSessions = upstream.sessions();

    const deleted = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections`, undefined, alice);
    expect(deleted.status, deleted.text).to.equal(200);
    expect(deleted.json).to.deep.include({ deleted_connections: 1, ended_sessions: 1 });
    const closed = upstreamSessions.filter((s) => !upstream.sessions().includes(s));
    expect(closed).to.have.length(1);
    expect(upstream.closedSessions).to.include(closed[0]);

    const after = await client.callTool({ name: 'echo', arguments: { text: 'after' } }).then(() => undefined, (e: unknown) => e);
    expect(after).to.be.instanceOf(StreamableHTTPError);
    expect((after as StreamableHTTPError).code).to.equal(404);
    const raw = await rawPost(gw, 'conn', JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), { ...alice, 'mcp-session-id': transport.sessionId! });
    expect(raw.status).to.equal(404);

    const again = await connect(gw, 'conn', alice);
    expect(again.transport.sessionId).to.not.equal(transport.sessionId);
    expect(textOf(await again.client.callTool({ name: 'echo', arguments: { text: 'again' } }))).to.equal('again');
    await again.client.close();
  });

  it('lists connections a page at a time, with their sessions and never a token', async () => {
    for (const user of ['p1', 'p2', 'p3']) await connect(gw, 'conn', person(user, 'member'));
    const all = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections`);
    expect(all.status, all.text).to.equal(200);
    expect(all.json).to.deep.include({ object: 'list', current_page: 0, page_size: 50 });
    const mine = all.json.data.filter((c: { user_id: string }) => ['p1', 'p2', 'p3'].includes(c.user_id));
    expect(mine).to.have.length(3);
    expect(mine[0]).to.include({ object: 'mcp_connection', server_id: serverId, server_slug: 'conn', workspace_id: 'ws-1', sessions: 1, has_upstream_credential: false });
    expect(mine[0]).to.have.keys('object', 'id', 'server_id', 'server_slug', 'organisation_id', 'workspace_id', 'user_id', 'api_key_id', 'created_at', 'last_used_at', 'sessions', 'has_upstream_credential');
    const total = all.json.total_count as number;
    const page = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections?current_page=1&page_size=2`);
    expect(page.json).to.deep.include({ total_count: total, current_page: 1, page_size: 2 });
    expect(page.json.data.map((c: { id: string }) => c.id)).to.deep.equal(all.json.data.slice(2, 4).map((c: { id: string }) => c.id));
    const bad = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections?page_size=0`);
    expect(bad.status).to.equal(400);
    expect(bad.json.error.message).to.contain('page_size');
  });

  it('lets members see and end only their own; managers and admins act on any user with ?user_id=', async () => {
    await connect(gw, 'conn', person('bob', 'member'));
    await connect(gw, 'conn', person('carol', 'member'));
    const bobSees = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections`, undefined, person('bob', 'member'));
    expect(bobSees.status).to.equal(200);
    expect(bobSees.json.data.map((c: { user_id: string }) => c.user_id)).to.deep.equal(['bob']);
    const refused = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections?user_id=carol`, undefined, person('bob', 'member'));
    expect(refused.status).to.equal(403);
    expect(refused.json.error.message).to.contain('other users');

    const manager = person('mia', 'manager');
    const managed = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections?user_id=carol`, undefined, manager);
    expect(managed.status, managed.text).to.equal(200);
    expect(managed.json.deleted_connections).to.equal(1);
    const otherWorkspace = person('max', 'manager', { workspaceId: 'ws-2' });
    const outside = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections?user_id=bob`, undefined, otherWorkspace);
    expect(outside.status).to.equal(404, 'a manager of another workspace reaches no connection of ws-1');
    const admin = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections?user_id=bob`);
    expect(admin.status).to.equal(200);
    const none = await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections?user_id=bob`);
    expect(none.status).to.equal(404);
    expect(none.json.error.code).to.equal('connection_not_found');
    const blank = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections?user_id=`);
    expect(blank.status).to.equal(400);
    expect(blank.json.error.message).to.contain('user_id');
  });

  it('ends the sessions of a server that changed since (its URL or credentials may differ): 404, then a new session works', async () => {
    const init = await rawPost(gw, 'conn', INITIALIZE());
    const session = init.headers.get('mcp-session-id')!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await rawPost(gw, 'conn', list, { 'mcp-session-id': session })).status).to.equal(200);
    const updated = await call(gw, 'PUT', `/v1/mcp-servers/${serverId}`, { url: upstream.url + '?v=2' });
    expect(updated.status, updated.text).to.equal(200);
    expect((await rawPost(gw, 'conn', list, { 'mcp-session-id': session })).status).to.equal(404);
    const again = await rawPost(gw, 'conn', INITIALIZE());
    expect(again.status).to.equal(200);
    expect((await rawPost(gw, 'conn', list, { 'mcp-session-id': again.headers.get('mcp-session-id')! })).status).to.equal(200);
  });

  it('answers 404 for the connections of a server the caller may not see', async () => {
    const missing = await call(gw, 'GET', '/v1/mcp-servers/nope/connections');
    expect(missing.status).to.equal(404);
  });
});

describe('agents.mcp-gateway: user_bearer servers', () => {
  let gw: TestGateway;
  let upstream: MockMcp;
  let serverId: string;

  before(async () => {
    upstream = await startMockMcp({ json: true, authorization: 'Bearer dana-own-token' });
    gw = await startMcpGateway();
    serverId = (await registerServer(gw, { slug: 'per-user', url: upstream.url, auth: { type: 'user_bearer' } })).id;
  });
  after(async () => {
    await gw?.stop();
    await upstream?.close();
  });

  it('asks for the caller\'s own token, keeps it sealed on the connection, and forgets it when the connection is deleted', async () => {
    const dana = person('dana', 'member');
    const missing = await rawPost(gw, 'per-user', INITIALIZE(), dana);
    expect(missing.status).to.equal(401);
    expect(missing.json.error.message).to.contain('x-gw-mcp-upstream-token');
    expect(missing.json.error.code).to.equal(-32001);

    const first = await connect(gw, 'per-user', { ...dana, 'x-gw-mcp-upstream-token': 'dana-own-token' });
    expect(textOf(await first.client.callTool({ name: 'echo', arguments: { text: 'mine' } }))).to.equal('mine');
    expect(upstream.requests.at(-1)?.headers['authorization']).to.equal('Bearer dana-own-token');
    await first.client.close();

    // Later sessions use the kept token.
    const later = await connect(gw, 'per-user', dana);
    expect(textOf(await later.client.callTool({ name: 'echo', arguments: { text: 'kept' } }))).to.equal('kept');
    const listed = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections`, undefined, dana);
    expect(listed.json.data[0]).to.include({ user_id: 'dana', has_upstream_credential: true });
    expect(listed.text).to.not.contain('dana-own-token');

    expect((await call(gw, 'DELETE', `/v1/mcp-servers/${serverId}/connections`, undefined, dana)).status).to.equal(200);
    const forgotten = await rawPost(gw, 'per-user', INITIALIZE(), dana);
    expect(forgotten.status).to.equal(401);
  });

  it('says so when the upstream refuses the caller\'s token', async () => {
    const eve = person('eve', 'member');
    const wrong = await rawPost(gw, 'per-user', INITIALIZE(), { ...eve, 'x-gw-mcp-upstream-token': 'not-eves' });
    expect(wrong.status).to.equal(401);
    expect(wrong.json.error.message).to.contain('refused your upstream token');
    expect(wrong.text).to.not.contain('not-eves');
    // A refused token is not kept.
    const listed = await call(gw, 'GET', `/v1/mcp-servers/${serverId}/connections?user_id=eve`);
    expect(listed.json.data[0]).to.include({ user_id: 'eve', has_upstream_credential: false });
  });
});
