/**
 * agents.mcp-gateway on two instances sharing one record store: a session minted on one is served
 * by the other, and a connection deleted on one answers 404 on both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { startMockMcp, type MockMcp } from '../../../fixtures/mock-mcp-server.js';
import { startRegistry } from '../mcp-servers/harness.js';
import { call, INITIALIZE, rawPost, registerServer } from './harness.js';

describe('agents.mcp-gateway: two instances on one store', () => {
  let a: TestGateway;
  let b: TestGateway;
  let upstream: MockMcp;
  let shared: string;
  let serverId: string;

  before(async () => {
    upstream = await startMockMcp({ json: true });
    shared = await mkdtemp(join(tmpdir(), 'gw-mcp-fleet-'));
    a = await startRegistry({ dataDir: shared });
    serverId = (await registerServer(a, { slug: 'fleet', url: upstream.url })).id;
    // Started after the registration: it reads the server from the store.
    b = await startRegistry({ dataDir: shared });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await upstream?.close();
    await rm(shared, { recursive: true, force: true });
  });

  it('serves on one instance a session minted on the other; a deleted connection answers 404 on both', async () => {
    const init = await rawPost(a, 'fleet', INITIALIZE());
    expect(init.status, init.text).to.equal(200);
    const session = init.headers.get('mcp-session-id')!;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const onB = await rawPost(b, 'fleet', list, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    expect(onB.status, onB.text).to.equal(200);
    expect(onB.json.result.tools.map((t: { name: string }) => t.name)).to.include('echo');

    const deleted = await call(b, 'DELETE', `/v1/mcp-servers/${serverId}/connections`);
    expect(deleted.status, deleted.text).to.equal(200);
    expect((await rawPost(a, 'fleet', list, { 'mcp-session-id': session })).status).to.equal(404);
    expect((await rawPost(b, 'fleet', list, { 'mcp-session-id': session })).status).to.equal(404);
  });
});
