/** agents.mcp-servers: the /v1/mcp-servers routes (create, list, read, update, delete) and what they answer. */
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { call, startRegistry } from './harness.js';

describe('agents.mcp-servers: routes', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startRegistry();
  });
  after(async () => {
    await gw?.stop();
  });

  it('registers a server and answers it by id and by slug', async () => {
    const created = await call(gw, 'POST', '/v1/mcp-servers', {
      name: 'Docs', slug: 'docs', url: 'https://mcp.example.com/mcp', description: 'the docs server',
      allowed_tools: ['search', 'fetch'], denied_tools: ['delete_all'],
    });
    expect(created.status, created.text).to.equal(200);
    expect(created.json).to.deep.include({
      object: 'mcp-server', slug: 'docs', name: 'Docs', url: 'https://mcp.example.com/mcp', description: 'the docs server',
      auth: { type: 'none' }, organisation_id: 'default', workspace_id: null, allow_all_workspaces: true, allowed_workspaces: [],
      allowed_tools: ['search', 'fetch'], denied_tools: ['delete_all'], secret_mappings: [], status: 'active',
    });
    expect(created.json.id).to.match(/^[0-9a-f-]{36}$/);
    const byId = await call(gw, 'GET', `/v1/mcp-servers/${created.json.id}`);
    const bySlug = await call(gw, 'GET', '/v1/mcp-servers/docs');
    expect(byId.json).to.deep.equal(created.json);
    expect(bySlug.json).to.deep.equal(created.json);
  });

  it('defaults the name to the slug and the tools to all', async () => {
    const created = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'plain', url: 'http://127.0.0.1:1/mcp' });
    expect(created.status, created.text).to.equal(200);
    expect(created.json).to.deep.include({ name: 'plain', allowed_tools: null, denied_tools: [] });
  });

  it('lists servers a page at a time', async () => {
    for (const slug of ['page-a', 'page-b', 'page-c']) {
      expect((await call(gw, 'POST', '/v1/mcp-servers', { slug, url: 'https://mcp.example.com/' + slug })).status).to.equal(200);
    }
    const all = await call(gw, 'GET', '/v1/mcp-servers');
    expect(all.status).to.equal(200);
    expect(all.json).to.deep.include({ object: 'list', current_page: 0, page_size: 50 });
    const total = all.json.total_count as number;
    expect(all.json.data).to.have.length(total);
    const second = await call(gw, 'GET', '/v1/mcp-servers?current_page=1&page_size=2');
    expect(second.json).to.deep.include({ total_count: total, current_page: 1, page_size: 2 });
    expect(second.json.data.map((s: { slug: string }) => s.slug)).to.deep.equal(all.json.data.slice(2, 4).map((s: { slug: string }) => s.slug));
    const bad = await call(gw, 'GET', '/v1/mcp-servers?page_size=0');
    expect(bad.status).to.equal(400);
  });

  it('updates the fields given and keeps the others', async () => {
    await call(gw, 'POST', '/v1/mcp-servers', { slug: 'to-update', url: 'https://a.example.com/mcp', allowed_tools: ['a'] });
    const updated = await call(gw, 'PUT', '/v1/mcp-servers/to-update', { name: 'Renamed', slug: 'updated', allowed_tools: null, denied_tools: ['x'] });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.json).to.deep.include({ name: 'Renamed', slug: 'updated', url: 'https://a.example.com/mcp', allowed_tools: null, denied_tools: ['x'] });
    expect((await call(gw, 'GET', '/v1/mcp-servers/to-update')).status).to.equal(404);
    expect((await call(gw, 'GET', '/v1/mcp-servers/updated')).json.name).to.equal('Renamed');
  });

  it('takes back what GET answered (its editable fields) and changes nothing', async () => {
    const editable = ['name', 'slug', 'description', 'url', 'auth', 'allowed_tools', 'denied_tools', 'workspace_id', 'allow_all_workspaces', 'allowed_workspaces', 'secret_mappings'];
    for (const body of [
      { slug: 'trip-org', url: 'https://a.example.com/mcp', auth: { type: 'bearer', token: 'round-trip-token-0000' }, allowed_workspaces: ['ws-1'] },
      { slug: 'trip-ws', url: 'https://a.example.com/mcp', workspace_id: 'ws-2', auth: { type: 'headers', headers: { 'X-Key': 'round-trip-header-00' } } },
    ]) {
      const shown = (await call(gw, 'POST', '/v1/mcp-servers', body)).json;
      const back = await call(gw, 'PUT', `/v1/mcp-servers/${shown.id}`, Object.fromEntries(editable.map((k) => [k, shown[k]])));
      expect(back.status, back.text).to.equal(200);
      const { last_updated_at: _a, ...before } = shown;
      const { last_updated_at: _b, ...after } = back.json;
      expect(after).to.deep.equal(before);
    }
    const moved = await call(gw, 'PUT', '/v1/mcp-servers/trip-ws', { workspace_id: null });
    expect(moved.status).to.equal(400);
    expect(moved.json.error.param).to.equal('workspace_id');
  });

  it('refuses a slug that another server has, on create and on update', async () => {
    await call(gw, 'POST', '/v1/mcp-servers', { slug: 'taken', url: 'https://a.example.com/mcp' });
    await call(gw, 'POST', '/v1/mcp-servers', { slug: 'other', url: 'https://a.example.com/mcp' });
    const again = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'taken', url: 'https://b.example.com/mcp' });
    expect(again.status).to.equal(400);
    expect(again.json.error).to.deep.include({ param: 'slug', message: 'body.slug: "taken" is taken by another MCP server' });
    const rename = await call(gw, 'PUT', '/v1/mcp-servers/other', { slug: 'taken' });
    expect(rename.status).to.equal(400);
    expect(rename.json.error.param).to.equal('slug');
  });

  it('deletes a server; it is gone afterwards', async () => {
    const created = await call(gw, 'POST', '/v1/mcp-servers', { slug: 'short-lived', url: 'https://a.example.com/mcp' });
    const deleted = await call(gw, 'DELETE', '/v1/mcp-servers/short-lived');
    expect(deleted.status).to.equal(200);
    expect(deleted.json).to.deep.equal({ id: created.json.id, object: 'mcp-server', deleted: true });
    const gone = await call(gw, 'GET', `/v1/mcp-servers/${created.json.id}`);
    expect(gone.status).to.equal(404);
    expect(gone.json.error).to.deep.include({ code: 'mcp_server_not_found', message: `no MCP server "${created.json.id}"` });
    expect((await call(gw, 'DELETE', '/v1/mcp-servers/short-lived')).status).to.equal(404);
    // The slug is free again.
    expect((await call(gw, 'POST', '/v1/mcp-servers', { slug: 'short-lived', url: 'https://a.example.com/mcp' })).status).to.equal(200);
  });
});
