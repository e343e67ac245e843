/**
 * agents.mcp-servers in the default gateway with the real control plane: API keys of each kind,
 * workspace roles of real members, and the two settings changed through the settings routes.
 */
import { expect } from 'chai';
import { createKey, defaultWorkspaceId, startControlPlane, userKey, type ControlPlane } from '../../admin/api-keys/helpers.js';

const URL = 'https://mcp.example.com/mcp';

describe('agents.mcp-servers: with the real control plane (end to end)', () => {
  let cp: ControlPlane;
  let ws: string;

  before(async () => {
    cp = await startControlPlane();
    ws = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp?.stop();
  });

  it('an organisation owner registers organisation and workspace servers', async () => {
    const org = await cp.owner.post('/v1/mcp-servers', { slug: 'cp-org', url: URL });
    expect(org.status, org.text).to.equal(200);
    const own = await cp.owner.post('/v1/mcp-servers', { slug: 'cp-ws', url: URL, workspace_id: 'default' });
    expect(own.status, own.text).to.equal(200);
    expect(own.json.workspace_id).to.equal(ws);
  });

  it('a workspace-service key acts by its scopes, inside its workspace', async () => {
    const reader = await createKey(cp, { name: 'mcp reader', type: 'workspace-service', workspace_id: ws, scopes: ['mcp_servers.list', 'mcp_servers.read'] });
    const client = cp.as(reader.key);
    const list = await client.get('/v1/mcp-servers');
    expect(list.status, list.text).to.equal(200);
    expect(list.json.data.map((s: { slug: string }) => s.slug).sort()).to.deep.equal(['cp-org', 'cp-ws']);
    const create = await client.post('/v1/mcp-servers', { slug: 'nope', url: URL });
    expect(create.status).to.equal(403);
    expect(create.json.error.message).to.equal('the API key lacks the scope mcp_servers.create');
  });

  it('members never write; managers follow managersWriteMcpServers and managersWriteWsMcpIntegrations', async () => {
    const memberKey = await userKey(cp, ws, 'member', ['mcp_servers.*']);
    const managerKey = await userKey(cp, ws, 'manager', ['mcp_servers.*']);
    const asMember = cp.as(memberKey.key);
    const asManager = cp.as(managerKey.key);
    expect((await asMember.get('/v1/mcp-servers/cp-ws')).status).to.equal(200);
    expect((await asMember.post('/v1/mcp-servers', { slug: 'by-member', url: URL })).status).to.equal(403);

    const made = await asManager.post('/v1/mcp-servers', { slug: 'by-manager', url: URL, auth: { type: 'bearer', token: 'manager-token-000000' } });
    expect(made.status, made.text).to.equal(200);
    expect(made.json.workspace_id).to.equal(ws);

    expect((await cp.owner.put(`/v1/workspaces/${ws}/settings`, { managersWriteMcpServers: false })).status).to.equal(200);
    const barred = await asManager.put('/v1/mcp-servers/by-manager', { name: 'x' });
    expect(barred.status).to.equal(403);
    expect(barred.json.error.message).to.equal('workspace managers cannot write MCP servers (setting managersWriteMcpServers is off)');
    expect((await cp.owner.put(`/v1/workspaces/${ws}/settings`, { managersWriteMcpServers: null })).status).to.equal(200);

    expect((await cp.owner.put('/v1/organisation/settings', { managersWriteWsMcpIntegrations: false })).status).to.equal(200);
    const secret = await asManager.put('/v1/mcp-servers/by-manager', { auth: { type: 'bearer', token: 'another-token-00000' } });
    expect(secret.status).to.equal(403);
    expect(secret.json.error.message).to.equal('workspace managers cannot set or change an MCP server\'s auth (setting managersWriteWsMcpIntegrations is off)');
    const renamed = await asManager.put('/v1/mcp-servers/by-manager', { name: 'Renamed' });
    expect(renamed.status, renamed.text).to.equal(200);
    expect((await cp.owner.put('/v1/organisation/settings', { managersWriteWsMcpIntegrations: true })).status).to.equal(200);
    expect((await asManager.del('/v1/mcp-servers/by-manager')).status).to.equal(200);
  });
});
