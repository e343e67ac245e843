/** agents.mcp-servers: who may read and write servers (scopes, workspace boundary, organisations, roles and the two settings). */
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, controlState, startRegistry, wsCaller } from './harness.js';

const URL = 'https://mcp.example.com/mcp';
const slugs = (res: { json: { data: { slug: string }[] } }) => res.json.data.map((s) => s.slug).sort();

describe('agents.mcp-servers: authorisation', () => {
  let gw: TestGateway;
  const state = controlState();
  const manager = () => wsCaller({ type: 'workspace-user', role: 'manager', userId: 'u-1' });
  const member = () => wsCaller({ type: 'workspace-user', role: 'member', userId: 'u-2' });

  before(async () => {
    gw = await startRegistry({ state });
    const create = async (body: Record<string, unknown>) => {
      const res = await call(gw, 'POST', '/v1/mcp-servers', { url: URL, ...body });
      expect(res.status, res.text).to.equal(200);
    };
    await create({ slug: 'org-wide' });
    await create({ slug: 'org-for-one', allowed_workspaces: ['team-one'] });
    await create({ slug: 'org-for-two', allowed_workspaces: ['ws-2'] });
    await create({ slug: 'two-own', workspace_id: 'team-two' });
    await create({ slug: 'one-own', workspace_id: 'ws-1' });
  });
  after(async () => {
    await gw?.stop();
  });
  afterEach(() => {
    state.settings = controlState().settings;
  });

  describe('scopes', () => {
    it('refuses a key without the scope of the route (403), per action', async () => {
      const none = as({ type: 'organisation-service', scopes: [] });
      const cases: [string, string, unknown, string][] = [
        ['POST', '/v1/mcp-servers', { slug: 'x', url: URL }, 'mcp_servers.create'],
        ['GET', '/v1/mcp-servers', undefined, 'mcp_servers.list'],
        ['GET', '/v1/mcp-servers/org-wide', undefined, 'mcp_servers.read'],
        ['PUT', '/v1/mcp-servers/org-wide', { name: 'x' }, 'mcp_servers.update'],
        ['DELETE', '/v1/mcp-servers/org-wide', undefined, 'mcp_servers.delete'],
      ];
      for (const [method, path, body, scope] of cases) {
        const res = await call(gw, method, path, body, none);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.json.error).to.deep.include({ type: 'permission_error', message: `the API key lacks the scope ${scope}` });
      }
    });

    it('allows exactly what the scopes grant', async () => {
      const reader = as({ type: 'organisation-service', scopes: ['mcp_servers.read'] });
      expect((await call(gw, 'GET', '/v1/mcp-servers/org-wide', undefined, reader)).status).to.equal(200);
      expect((await call(gw, 'GET', '/v1/mcp-servers', undefined, reader)).status).to.equal(403);
      expect((await call(gw, 'PUT', '/v1/mcp-servers/org-wide', { name: 'x' }, reader)).status).to.equal(403);
      const writer = as({ type: 'organisation-service', scopes: ['mcp_servers.*'] });
      const created = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'by-service', url: URL }, writer);
      expect(created.status, created.text).to.equal(200);
      expect((await call(gw, 'DELETE', '/v1/mcp-servers/by-service', undefined, writer)).status).to.equal(200);
    });
  });

  describe('workspaces', () => {
    it('a workspace key sees its own servers and the organisation servers allowed in its workspace, nothing else', async () => {
      const list = await call(gw, 'GET', '/v1/mcp-servers', undefined, wsCaller());
      expect(list.status).to.equal(200);
      expect(slugs(list)).to.deep.equal(['one-own', 'org-for-one', 'org-wide']);
      for (const hidden of ['two-own', 'org-for-two']) {
        const res = await call(gw, 'GET', `/v1/mcp-servers/${hidden}`, undefined, wsCaller());
        expect(res.status, hidden).to.equal(404);
        expect(res.json.error.message).to.equal(`no MCP server "${hidden}"`);
      }
    });

    it('an organisation key sees every server and filters by workspace', async () => {
      const all = await call(gw, 'GET', '/v1/mcp-servers');
      expect(slugs(all)).to.deep.equal(['one-own', 'org-for-one', 'org-for-two', 'org-wide', 'two-own']);
      const inTwo = await call(gw, 'GET', '/v1/mcp-servers?workspace_id=ws-2');
      expect(slugs(inTwo)).to.deep.equal(['org-for-two', 'org-wide', 'two-own']);
    });

    it('a workspace key registers servers of its own workspace only', async () => {
      const own = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'made-in-one', url: URL }, wsCaller());
      expect(own.status, own.text).to.equal(200);
      expect(own.json).to.deep.include({ workspace_id: 'ws-1', allow_all_workspaces: false, allowed_workspaces: [] });
      const named = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'named-one', url: URL, workspace_id: 'team-one' }, wsCaller());
      expect(named.status, named.text).to.equal(200);
      for (const body of [{ workspace_id: 'ws-2' }, { allow_all_workspaces: true }, { allowed_workspaces: ['ws-1'] }]) {
        const res = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'wider', url: URL, ...body }, wsCaller());
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(res.json.error.message).to.equal('a workspace key can only register MCP servers of its own workspace (ws-1)');
      }
    });

    it('a workspace key cannot change organisation servers nor reach other workspaces\' servers', async () => {
      for (const [method, body] of [['PUT', { name: 'x' }], ['DELETE', undefined]] as const) {
        const orgWide = await call(gw, method, '/v1/mcp-servers/org-wide', body, wsCaller());
        expect(orgWide.status).to.equal(403);
        expect(orgWide.json.error.message).to.equal('MCP server "org-wide" does not belong to workspace ws-1: only an organisation key may change it');
        expect((await call(gw, method, '/v1/mcp-servers/two-own', body, wsCaller())).status).to.equal(404);
      }
      const renamed = await call(gw, 'PUT', '/v1/mcp-servers/one-own', { name: 'Ours', workspace_id: 'ws-1' }, wsCaller());
      expect(renamed.status, renamed.text).to.equal(200);
      const opened = await call(gw, 'PUT', '/v1/mcp-servers/one-own', { allow_all_workspaces: true }, wsCaller());
      expect(opened.status).to.equal(400);
      expect(opened.json.error.param).to.equal('allow_all_workspaces');
    });

    it('another organisation sees none of these servers and may reuse their slugs', async () => {
      const other = as({ type: 'organisation-owner', organisationId: 'org-2', scopes: [] });
      expect((await call(gw, 'GET', '/v1/mcp-servers/org-wide', undefined, other)).status).to.equal(404);
      expect((await call(gw, 'GET', '/v1/mcp-servers', undefined, other)).json.total_count).to.equal(0);
      const mine = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'org-wide', url: URL, workspace_id: 'elsewhere' }, other);
      expect(mine.status, mine.text).to.equal(200);
      expect(mine.json).to.deep.include({ organisation_id: 'org-2', workspace_id: 'ws-x' });
      const ours = await call(gw, 'GET', '/v1/mcp-servers/org-wide');
      expect(ours.json.organisation_id).to.equal('default');
      const wrongWorkspace = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'x', url: URL, workspace_id: 'team-one' }, other);
      expect(wrongWorkspace.status).to.equal(400);
      expect(wrongWorkspace.json.error.param).to.equal('workspace_id');
    });
  });

  describe('roles and settings', () => {
    it('a member reads but never writes', async () => {
      expect((await call(gw, 'GET', '/v1/mcp-servers/one-own', undefined, member())).status).to.equal(200);
      for (const [method, path, body] of [['POST', '/v1/mcp-servers', { slug: 'm', url: URL }], ['PUT', '/v1/mcp-servers/one-own', { name: 'm' }], ['DELETE', '/v1/mcp-servers/one-own', undefined]] as const) {
        const res = await call(gw, method, path, body, member());
        expect(res.status, method).to.equal(403);
        expect(res.json.error.message).to.equal('workspace members cannot write MCP servers');
      }
    });

    it('managersWriteMcpServers off: a manager cannot create, update or delete; on: they can', async () => {
      state.settings['managersWriteMcpServers'] = false;
      for (const [method, path, body] of [['POST', '/v1/mcp-servers', { slug: 'by-manager', url: URL }], ['PUT', '/v1/mcp-servers/one-own', { name: 'm' }], ['DELETE', '/v1/mcp-servers/one-own', undefined]] as const) {
        const res = await call(gw, method, path, body, manager());
        expect(res.status, method).to.equal(403);
        expect(res.json.error.message).to.equal('workspace managers cannot write MCP servers (setting managersWriteMcpServers is off)');
      }
      // Organisation keys and workspace admins are not bound by it.
      expect((await call(gw, 'PUT', '/v1/mcp-servers/one-own', { name: 'by admin' }, wsCaller({ type: 'workspace-user', role: 'admin' }))).status).to.equal(200);
      state.settings['managersWriteMcpServers'] = true;
      const created = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'by-manager', url: URL }, manager());
      expect(created.status, created.text).to.equal(200);
      expect((await call(gw, 'DELETE', '/v1/mcp-servers/by-manager', undefined, manager())).status).to.equal(200);
    });

    it('managersWriteWsMcpIntegrations off: a manager cannot set or change credentials, but edits the rest', async () => {
      const secretful = await call(gw, 'POST', '/v1/mcp-servers', {
        slug: 'with-token', url: URL, workspace_id: 'ws-1', auth: { type: 'bearer', token: 'tok-0123456789abcdef' },
      });
      expect(secretful.status, secretful.text).to.equal(200);
      state.settings['managersWriteWsMcpIntegrations'] = false;
      const refusedCreates: [Record<string, unknown>, string][] = [
        [{ auth: { type: 'bearer', token: 'new-token-000000000' } }, 'auth'],
        [{ auth: { type: 'headers', headers: { 'x-api-key': 'k' } } }, 'auth'],
        [{ auth: { type: 'bearer' }, secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_X' }] }, 'auth'],
      ];
      for (const [body, what] of refusedCreates) {
        const res = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'mgr-secret', url: URL, ...body }, manager());
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(res.json.error.message).to.equal(`workspace managers cannot set or change an MCP server's ${what} (setting managersWriteWsMcpIntegrations is off)`);
      }
      // Servers without credentials of their own are fine (user_bearer: each caller brings a token).
      for (const [slug, auth] of [['mgr-none', { type: 'none' }], ['mgr-user', { type: 'user_bearer' }]] as const) {
        const res = await call(gw, 'POST', '/v1/mcp-servers', { slug, url: URL, auth }, manager());
        expect(res.status, res.text).to.equal(200);
      }
      const refusedUpdates: [Record<string, unknown>, string][] = [
        [{ auth: { type: 'bearer', token: 'another-token-0000000' } }, 'auth'],
        [{ auth: { type: 'none' } }, 'auth'],
        [{ secret_mappings: [{ target_field: 'auth.token', secret_reference: 'GW_SECRET_REF_X' }] }, 'secret_mappings'],
        [{ url: 'https://attacker.example.com/mcp' }, 'url (it holds credentials)'],
      ];
      for (const [body, what] of refusedUpdates) {
        const res = await call(gw, 'PUT', '/v1/mcp-servers/with-token', body, manager());
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(res.json.error.message).to.equal(`workspace managers cannot set or change an MCP server's ${what} (setting managersWriteWsMcpIntegrations is off)`);
      }
      // Sending back what GET answered (the masked token) changes no credential.
      const shown = (await call(gw, 'GET', '/v1/mcp-servers/with-token', undefined, manager())).json;
      const roundTrip = await call(gw, 'PUT', '/v1/mcp-servers/with-token', { name: 'Renamed', auth: shown.auth, secret_mappings: [] }, manager());
      expect(roundTrip.status, roundTrip.text).to.equal(200);
      expect(roundTrip.json.auth).to.deep.equal(shown.auth);
      // A server without credentials may move.
      expect((await call(gw, 'PUT', '/v1/mcp-servers/mgr-none', { url: 'https://elsewhere.example.com/mcp' }, manager())).status).to.equal(200);
      // An organisation key is not bound by the setting.
      expect((await call(gw, 'PUT', '/v1/mcp-servers/with-token', { auth: { type: 'bearer', token: 'org-set-token-00000' } })).status).to.equal(200);
    });
  });
});
