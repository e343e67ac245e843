/**
 * agents.agent-servers: the /v1/agent-servers routes. CRUD with paging, validation (400 naming the
 * field and the rule), scopes (agent_servers.*), workspace visibility and ownership, and the auth
 * secret: sealed at rest, never answered, kept across a GET → PUT round trip.
 */
import { expect } from 'chai';
import { withRecords } from '../../../helpers/records.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, caller, startAgentGateway } from './harness.js';

const TOKEN = 'agent-token-7b1d0c9e5a';

describe('agents.agent-servers: /v1/agent-servers', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startAgentGateway();
  });
  after(async () => {
    await gw?.stop();
  });

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) => call(gw, 'POST', '/v1/agent-servers', body, headers);

  it('creates, reads (by id and slug), lists, updates and deletes a server', async () => {
    const created = await create({ name: 'Travel', slug: 'travel', url: 'http://127.0.0.1:9/agents/travel/', description: 'books trips' });
    expect(created.status, created.text).to.equal(200);
    expect(created.json).to.include({ object: 'agent_server', slug: 'travel', name: 'Travel', url: 'http://127.0.0.1:9/agents/travel', allow_all_workspaces: true });
    expect(created.json.auth).to.deep.equal({ type: 'none' });
    const id = created.json.id as string;

    expect((await call(gw, 'GET', `/v1/agent-servers/${id}`)).json.slug).to.equal('travel');
    expect((await call(gw, 'GET', '/v1/agent-servers/travel')).json.id).to.equal(id);
    const list = await call(gw, 'GET', '/v1/agent-servers');
    expect(list.json).to.include({ object: 'list', current_page: 0, page_size: 50 });
    expect(list.json.data.map((s: any) => s.slug)).to.include('travel');

    const updated = await call(gw, 'PUT', `/v1/agent-servers/${id}`, { name: 'Trips', url: 'https://agents.example.com/trips' });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.json).to.include({ name: 'Trips', url: 'https://agents.example.com/trips', slug: 'travel' });
    const patched = await call(gw, 'PATCH', `/v1/agent-servers/${id}`, { description: 'plans trips' });
    expect(patched.json).to.include({ description: 'plans trips', name: 'Trips' });

    const deleted = await call(gw, 'DELETE', `/v1/agent-servers/${id}`);
    expect(deleted.json).to.deep.equal({ id, object: 'agent_server', deleted: true });
    expect((await call(gw, 'GET', `/v1/agent-servers/${id}`)).status).to.equal(404);
  });

  it('pages the list with current_page and page_size', async () => {
    for (const n of [1, 2, 3]) expect((await create({ name: `P${n}`, slug: `page-${n}`, url: 'http://127.0.0.1:9' })).status).to.equal(200);
    const page = await call(gw, 'GET', '/v1/agent-servers?page_size=2&current_page=1');
    expect(page.json.page_size).to.equal(2);
    expect(page.json.data).to.have.length.at.most(2);
    expect(page.json.total_count).to.be.at.least(3);
    expect((await call(gw, 'GET', '/v1/agent-servers?page_size=0')).status).to.equal(400);
  });

  it('refuses bad input with a 400 naming the field and the rule', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: 'x', slug: 'Bad Slug', url: 'http://127.0.0.1:9' }, 'slug', /lower-case/],
      [{ name: 'x', slug: 'ok', url: 'ftp://127.0.0.1/' }, 'url', /http\(s\) URL/],
      [{ name: 'x', slug: 'ok', url: 'http://user:secret@127.0.0.1:9' }, 'url', /credentials/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9/a?b=c' }, 'url', /query or fragment/],
      [{ slug: 'ok', url: 'http://127.0.0.1:9' }, 'name', /required/],
      [{ name: 'x', slug: 'ok' }, 'url', /required/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'bearer' } }, 'auth.token', /required/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'basic' } }, 'auth.type', /./],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'headers', headers: {} } }, 'auth.headers', /at least one/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'headers', headers: { 'X-GW-API-KEY': 'v' } } }, 'auth.headers.X-GW-API-KEY', /set by the gateway/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'headers', headers: { 'bad header': 'v' } } }, 'auth.headers', /header name/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', auth: { type: 'none', token: 't' } }, 'auth', /no token/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', allow_all_workspaces: true, allowed_workspaces: ['ws-a'] }, 'allowed_workspaces', /cannot be combined/],
      [{ name: 'x', slug: 'ok', url: 'http://127.0.0.1:9', extra: 1 }, 'extra', /./],
    ];
    for (const [body, param, rule] of cases) {
      const res = await create(body);
      expect(res.status, `${JSON.stringify(body)} → ${res.text}`).to.equal(400);
      expect(res.json.error.param, res.text).to.equal(param);
      expect(res.json.error.message, res.text).to.match(rule);
      expect(res.text).not.to.include('secret');
    }
    expect((await call(gw, 'POST', '/v1/agent-servers', undefined, { 'content-type': 'application/json' })).status).to.equal(400);
  });

  it('refuses a slug taken in the organisation', async () => {
    expect((await create({ name: 'a', slug: 'twice', url: 'http://127.0.0.1:9' })).status).to.equal(200);
    const again = await create({ name: 'b', slug: 'twice', url: 'http://127.0.0.1:9' });
    expect(again.status).to.equal(400);
    expect(again.json.error).to.include({ param: 'slug' });
  });

  it('seals the auth secret: never answered, not stored in clear, kept when a PUT sends the type again', async () => {
    const created = await create({ name: 'Sealed', slug: 'sealed', url: 'http://127.0.0.1:9', auth: { type: 'bearer', token: TOKEN } });
    expect(created.status).to.equal(200);
    expect(created.text).not.to.include(TOKEN);
    expect(created.json.auth).to.deep.equal({ type: 'bearer', token_set: true });
    const id = created.json.id as string;
    const read = await call(gw, 'GET', `/v1/agent-servers/${id}`);
    expect(read.text).not.to.include(TOKEN);
    const rows = await withRecords(gw.dataDir, (r) => r.all<Record<string, unknown>>('SELECT * FROM agent_servers WHERE id = ?', [id]));
    expect(JSON.stringify(rows)).not.to.include(TOKEN);
    expect(String(rows[0]!['auth_secret'])).to.match(/^v\d+:/);

    const roundTrip = await call(gw, 'PUT', `/v1/agent-servers/${id}`, { name: 'Sealed 2', auth: { type: 'bearer' } });
    expect(roundTrip.status, roundTrip.text).to.equal(200);
    const after = await withRecords(gw.dataDir, (r) => r.get<Record<string, unknown>>('SELECT auth_secret FROM agent_servers WHERE id = ?', [id]));
    expect(after!['auth_secret']).to.be.a('string');

    const headers = await call(gw, 'PUT', `/v1/agent-servers/${id}`, { auth: { type: 'headers', headers: { 'X-Agent-Key': TOKEN } } });
    expect(headers.json.auth).to.deep.equal({ type: 'headers', header_names: ['x-agent-key'] });
    expect(headers.text).not.to.include(TOKEN);
    const none = await call(gw, 'PUT', `/v1/agent-servers/${id}`, { auth: { type: 'none' } });
    expect(none.json.auth).to.deep.equal({ type: 'none' });
  });

  describe('scopes', () => {
    it('needs agent_servers.<action> for each route (403 in the gateway envelope)', async () => {
      const id = (await create({ name: 'S', slug: 'scoped', url: 'http://127.0.0.1:9' })).json.id as string;
      const none = as(caller([]));
      const attempts: [string, string, unknown, string][] = [
        ['POST', '/v1/agent-servers', { name: 'n', slug: 'nope', url: 'http://127.0.0.1:9' }, 'agent_servers.create'],
        ['GET', '/v1/agent-servers', undefined, 'agent_servers.list'],
        ['GET', `/v1/agent-servers/${id}`, undefined, 'agent_servers.read'],
        ['PUT', `/v1/agent-servers/${id}`, { name: 'x' }, 'agent_servers.update'],
        ['DELETE', `/v1/agent-servers/${id}`, undefined, 'agent_servers.delete'],
      ];
      for (const [method, path, body, scope] of attempts) {
        const res = await call(gw, method, path, body, none);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.json.error.message).to.include(scope);
        const allowed = await call(gw, method, path, body, as(caller([scope])));
        expect(allowed.status, `${method} ${path} with ${scope}: ${allowed.text}`).to.equal(200);
      }
    });

    it('agent_servers.* grants every action; agents.invoke alone grants none of them', async () => {
      expect((await call(gw, 'GET', '/v1/agent-servers', undefined, as(caller(['agent_servers.*'])))).status).to.equal(200);
      expect((await call(gw, 'GET', '/v1/agent-servers', undefined, as(caller(['agents.invoke'])))).status).to.equal(403);
    });
  });

  describe('workspaces', () => {
    const wsA = as(caller(['agent_servers.*'], { workspaceId: 'ws-a' }));
    const wsB = as(caller(['agent_servers.*'], { workspaceId: 'ws-b' }));

    it('a workspace key makes servers of its own workspace, seen and changed only there', async () => {
      const made = await create({ name: 'A', slug: 'ws-a-agent', url: 'http://127.0.0.1:9' }, wsA);
      expect(made.status, made.text).to.equal(200);
      expect(made.json).to.include({ workspace_id: 'ws-a', allow_all_workspaces: false });
      const id = made.json.id as string;
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, wsA)).status).to.equal(200);
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, wsB)).status).to.equal(404);
      expect((await call(gw, 'GET', '/v1/agent-servers', undefined, wsB)).json.data.map((s: any) => s.id)).not.to.include(id);
      expect((await call(gw, 'DELETE', `/v1/agent-servers/${id}`, undefined, wsB)).status).to.equal(404);
      // The organisation sees it, and may list by workspace.
      expect((await call(gw, 'GET', '/v1/agent-servers?workspace_id=ws-a')).json.data.map((s: any) => s.id)).to.include(id);
      expect((await call(gw, 'GET', '/v1/agent-servers?workspace_id=ws-b')).json.data.map((s: any) => s.id)).not.to.include(id);
    });

    it('a workspace key cannot place a server elsewhere nor change an organisation server', async () => {
      const other = await create({ name: 'A', slug: 'elsewhere', url: 'http://127.0.0.1:9', workspace_id: 'ws-b' }, wsA);
      expect(other.status).to.equal(403);
      const everywhere = await create({ name: 'A', slug: 'everywhere', url: 'http://127.0.0.1:9', allow_all_workspaces: true }, wsA);
      expect(everywhere.status).to.equal(403);
      const org = (await create({ name: 'Org', slug: 'org-wide', url: 'http://127.0.0.1:9' })).json.id as string;
      expect((await call(gw, 'GET', `/v1/agent-servers/${org}`, undefined, wsA)).status).to.equal(200);
      const change = await call(gw, 'PUT', `/v1/agent-servers/${org}`, { name: 'mine' }, wsA);
      expect(change.status).to.equal(403);
    });

    it('an organisation server limited to a list of workspaces is seen only there; its workspace never moves', async () => {
      const made = await create({ name: 'L', slug: 'listed', url: 'http://127.0.0.1:9', allowed_workspaces: ['ws-b'] });
      expect(made.json).to.include({ allow_all_workspaces: false });
      expect(made.json.allowed_workspaces).to.deep.equal(['ws-b']);
      const id = made.json.id as string;
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, wsB)).status).to.equal(200);
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, wsA)).status).to.equal(404);
      const owned = (await create({ name: 'O', slug: 'owned-a', url: 'http://127.0.0.1:9', workspace_id: 'ws-a' })).json.id as string;
      const move = await call(gw, 'PUT', `/v1/agent-servers/${owned}`, { workspace_id: 'ws-b' });
      expect(move.status).to.equal(400);
      expect(move.json.error.param).to.equal('workspace_id');
      const widen = await call(gw, 'PUT', `/v1/agent-servers/${id}`, { allow_all_workspaces: true });
      expect(widen.json).to.include({ allow_all_workspaces: true });
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, wsA)).status).to.equal(200);
    });

    it('servers of another organisation do not exist for the caller', async () => {
      const id = (await create({ name: 'D', slug: 'default-org', url: 'http://127.0.0.1:9' })).json.id as string;
      const other = as(caller(['agent_servers.*'], { organisationId: 'org-2' }));
      expect((await call(gw, 'GET', `/v1/agent-servers/${id}`, undefined, other)).status).to.equal(404);
      expect((await call(gw, 'GET', '/v1/agent-servers/default-org', undefined, other)).status).to.equal(404);
      // The slug is free in the other organisation.
      expect((await create({ name: 'D', slug: 'default-org', url: 'http://127.0.0.1:9' }, other)).status).to.equal(200);
    });
  });
});
