/** /v1/workspaces: the default workspace, create, list (status), read, update, archive; who may. */
import { expect } from 'chai';
import { createKey, defaultWorkspaceId, startControlPlane, userKey, type ControlPlane, type Reply } from '../api-keys/helpers.js';
import { CHAT_BODY, postJson } from '../../../helpers/gateway.js';

describe('admin.workspaces: workspaces', () => {
  let cp: ControlPlane;
  let defaultId: string;

  before(async () => {
    cp = await startControlPlane();
    defaultId = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp.stop();
  });

  const forbidden = (reply: Reply) => {
    expect(reply.status, reply.text).to.equal(403);
    expect(reply.json.error.type).to.equal('permission_error');
  };

  it('starts with one organisation and one default workspace', async () => {
    const list = await cp.owner.get('/v1/workspaces');
    expect(list.json).to.deep.include({ object: 'list', total_count: 1 });
    expect(list.json.data[0]).to.deep.include({ id: defaultId, object: 'workspace', slug: 'default', status: 'active', is_default: true, organisation_id: 'default' });
    expect(defaultId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('creates a workspace: the record with its id, a slug from the name unless given', async () => {
    const made = await cp.owner.post('/v1/workspaces', { name: 'Data Science Team', description: 'models' });
    expect(made.status, made.text).to.equal(200);
    expect(made.json).to.deep.include({ object: 'workspace', name: 'Data Science Team', slug: 'data-science-team', description: 'models', status: 'active', is_default: false });
    expect(made.json.id).to.be.a('string');
    const again = await cp.owner.post('/v1/workspaces', { name: 'Data science team!' });
    expect(again.json.slug).to.equal('data-science-team-2');
    const explicit = await cp.owner.post('/v1/workspaces', { name: 'X', slug: 'research' });
    expect(explicit.json.slug).to.equal('research');
    expect((await cp.owner.get('/v1/workspaces/research')).json.id).to.equal(explicit.json.id);
    expect((await cp.owner.get(`/v1/workspaces/${explicit.json.id}`)).json.slug).to.equal('research');
  });

  it('refuses a taken slug, a bad slug, a missing name or unknown fields with a 400', async () => {
    const taken = await cp.owner.post('/v1/workspaces', { name: 'Y', slug: 'default' });
    expect(taken.status).to.equal(400);
    expect(taken.json.error).to.deep.include({ code: 'duplicate', param: 'slug' });
    for (const [body, message] of [
      [{ name: 'Y', slug: 'Not A Slug' }, 'body.slug: must be 1 to 64 lower-case'],
      [{ slug: 'y' }, 'body.name: is required'],
      [{ name: '' }, 'body.name: must be at least 1 character'],
      [{ name: 'Y', owner: 'me' }, 'body.owner: is not an allowed key'],
    ] as const) {
      const reply = await cp.owner.post('/v1/workspaces', body);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain(message);
    }
  });

  it('answers 404 for an unknown workspace', async () => {
    const reply = await cp.owner.get('/v1/workspaces/nowhere');
    expect(reply.status).to.equal(404);
    expect(reply.json.error.code).to.equal('workspace_not_found');
  });

  it('updates name, description and slug; the default workspace keeps its slug', async () => {
    const made = (await cp.owner.post('/v1/workspaces', { name: 'Old' })).json;
    const updated = await cp.owner.put(`/v1/workspaces/${made.id}`, { name: 'New', slug: 'new-name', description: null });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.json).to.deep.include({ name: 'New', slug: 'new-name', description: null });
    expect((await cp.owner.get('/v1/workspaces/new-name')).json.id).to.equal(made.id);
    expect((await cp.owner.get('/v1/workspaces/old')).status).to.equal(404);
    const renamed = await cp.owner.put(`/v1/workspaces/${defaultId}`, { slug: 'main' });
    expect(renamed.status).to.equal(400);
    expect((await cp.owner.put(`/v1/workspaces/${made.id}`, { slug: 'research' })).json.error.code).to.equal('duplicate');
    expect((await cp.owner.put(`/v1/workspaces/${made.id}`, {})).status).to.equal(400);
  });

  it('archives a workspace: listed as archived to admins only, its keys refused, no changes', async () => {
    const made = (await cp.owner.post('/v1/workspaces', { name: 'Temporary' })).json;
    const key = await createKey(cp, { name: 'k', type: 'workspace-service', workspace_id: made.id, scopes: ['workspaces.read'] });
    expect((await cp.as(key.key).get(`/v1/workspaces/${made.id}`)).status).to.equal(200);
    const archived = await cp.owner.del(`/v1/workspaces/${made.id}`);
    expect(archived.status).to.equal(200);
    expect(archived.json).to.deep.include({ status: 'archived' });
    expect(archived.json.archived_at).to.be.a('string');
    expect((await cp.as(key.key).get(`/v1/workspaces/${made.id}`)).status).to.equal(401);
    expect((await cp.owner.del(`/v1/workspaces/${made.id}`)).status).to.equal(400);
    expect((await cp.owner.put(`/v1/workspaces/${made.id}`, { name: 'again' })).json.error.code).to.equal('workspace_archived');

    const active = await cp.owner.get('/v1/workspaces');
    expect(active.json.data.map((w: { id: string }) => w.id)).not.to.include(made.id);
    const both = await cp.owner.get('/v1/workspaces?status=active,archived');
    expect(both.json.data.map((w: { id: string }) => w.id)).to.include(made.id);
    const onlyArchived = await cp.owner.get('/v1/workspaces?status=archived');
    expect(onlyArchived.json.data.every((w: { status: string }) => w.status === 'archived')).to.equal(true);
    const reader = await createKey(cp, { name: 'reader', type: 'organisation-service', scopes: ['workspaces.read'] });
    forbidden(await cp.as(reader.key).get('/v1/workspaces?status=archived'));
    expect((await cp.as(reader.key).get('/v1/workspaces?status=active')).status).to.equal(200);
    expect((await cp.owner.get('/v1/workspaces?status=deleted')).status).to.equal(400);
  });

  it('never archives the default workspace', async () => {
    const reply = await cp.owner.del(`/v1/workspaces/${defaultId}`);
    expect(reply.status).to.equal(400);
    expect(reply.json.error.code).to.equal('default_workspace');
  });

  it('pages the list with total_count', async () => {
    const all = await cp.owner.get('/v1/workspaces?page_size=2');
    const next = await cp.owner.get('/v1/workspaces?page_size=2&current_page=1');
    expect(all.json.data).to.have.length(2);
    expect(next.json.total_count).to.equal(all.json.total_count);
    expect(next.json.data[0].id).to.not.equal(all.json.data[0].id);
  });

  it('keeps a workspace key in its workspace: it sees only its own, 403 elsewhere', async () => {
    const other = (await cp.owner.post('/v1/workspaces', { name: 'Other' })).json;
    const key = await createKey(cp, { name: 'ws', type: 'workspace-service', workspace_id: defaultId, scopes: ['workspaces.*'] });
    const c = cp.as(key.key);
    const list = await c.get('/v1/workspaces');
    expect(list.json.data.map((w: { id: string }) => w.id)).to.deep.equal([defaultId]);
    forbidden(await c.get(`/v1/workspaces/${other.id}`));
    forbidden(await c.put(`/v1/workspaces/${other.id}`, { name: 'mine' }));
    forbidden(await c.post('/v1/workspaces', { name: 'New' }));
    forbidden(await c.del(`/v1/workspaces/${other.id}`));
    expect((await c.put(`/v1/workspaces/${defaultId}`, { description: 'by its service key' })).status).to.equal(200);
  });

  it('needs the scope for each route, and the admin role to update', async () => {
    const reader = await createKey(cp, { name: 'reader', type: 'organisation-service', scopes: ['workspaces.read'] });
    forbidden(await cp.as(reader.key).post('/v1/workspaces', { name: 'N' }));
    forbidden(await cp.as(reader.key).put(`/v1/workspaces/${defaultId}`, { name: 'N' }));
    const manager = await userKey(cp, defaultId, 'manager', ['workspaces.*']);
    forbidden(await cp.as(manager.key).put(`/v1/workspaces/${defaultId}`, { name: 'N' }));
    const admin = await userKey(cp, defaultId, 'admin', ['workspaces.*']);
    expect((await cp.as(admin.key).put(`/v1/workspaces/${defaultId}`, { name: 'Default workspace' })).status).to.equal(200);
  });

  it('refuses a workspace key on inference once its workspace is archived', async () => {
    const made = (await cp.owner.post('/v1/workspaces', { name: 'Inference' })).json;
    const key = await createKey(cp, { name: 'k', type: 'workspace-service', workspace_id: made.id });
    await cp.owner.del(`/v1/workspaces/${made.id}`);
    const reply = await postJson(cp.gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json', 'x-gw-api-key': key.key, 'x-gw-provider': 'openai', authorization: 'Bearer sk' });
    expect(reply.status).to.equal(401);
  });
});
