/** /v1/users: create, list, read, delete; organisation-level keys only; who may make owners and admins. */
import { expect } from 'chai';
import { createKey, defaultWorkspaceId, member, startControlPlane, type ControlPlane } from '../api-keys/helpers.js';

describe('admin.workspaces: users', () => {
  let cp: ControlPlane;
  let ws: string;

  before(async () => {
    cp = await startControlPlane();
    ws = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp.stop();
  });

  it('creates a user (role any case, default member) and reads it back', async () => {
    const made = await cp.owner.post('/v1/users', { email: 'Ada@Example.com', name: 'Ada', role: 'ADMIN' });
    expect(made.status, made.text).to.equal(200);
    expect(made.json).to.deep.include({ object: 'user', email: 'ada@example.com', name: 'Ada', role: 'admin', organisation_id: 'default' });
    expect((await cp.owner.get(`/v1/users/${made.json.id}`)).json).to.deep.equal(made.json);
    const plain = await cp.owner.post('/v1/users', { email: 'bob@example.com' });
    expect(plain.json).to.deep.include({ role: 'member', name: null });
  });

  it('refuses a duplicate email (any case), a bad email or role, unknown fields', async () => {
    await cp.owner.post('/v1/users', { email: 'carol@example.com' });
    const dup = await cp.owner.post('/v1/users', { email: 'CAROL@example.com' });
    expect(dup.status).to.equal(400);
    expect(dup.json.error.code).to.equal('duplicate');
    for (const [body, message] of [
      [{ email: 'not-an-email' }, 'body.email: must be an email address'],
      [{ email: 'x@example.com', role: 'king' }, 'body.role: must be one of owner, admin, member'],
      [{ email: 'x@example.com', team: 'a' }, 'body.team: is not an allowed key'],
    ] as const) {
      const reply = await cp.owner.post('/v1/users', body);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain(message);
    }
  });

  it('lists users with filters and pagination', async () => {
    const all = await cp.owner.get('/v1/users?page_size=100');
    expect(all.json.object).to.equal('list');
    expect(all.json.total_count).to.equal(all.json.data.length);
    const admins = await cp.owner.get('/v1/users?role=admin');
    expect(admins.json.data.every((u: { role: string }) => u.role === 'admin')).to.equal(true);
    const byEmail = await cp.owner.get('/v1/users?email=ADA@example.com');
    expect(byEmail.json.data.map((u: { email: string }) => u.email)).to.deep.equal(['ada@example.com']);
    const page = await cp.owner.get('/v1/users?page_size=1&current_page=1');
    expect(page.json.data).to.have.length(1);
    expect(page.json.data[0].id).to.equal(all.json.data[1].id);
  });

  it('lets only owners make owners and only admins make admins', async () => {
    const admin = await createKey(cp, { name: 'admin', type: 'organisation-service', scopes: ['*'] });
    const owner = await cp.as(admin.key).post('/v1/users', { email: 'o@example.com', role: 'owner' });
    expect(owner.status).to.equal(403);
    expect((await cp.as(admin.key).post('/v1/users', { email: 'a2@example.com', role: 'admin' })).status).to.equal(200);
    expect((await cp.owner.post('/v1/users', { email: 'o@example.com', role: 'owner' })).status).to.equal(200);
    const creator = await createKey(cp, { name: 'hr', type: 'organisation-service', scopes: ['users.*'] });
    expect((await cp.as(creator.key).post('/v1/users', { email: 'a3@example.com', role: 'admin' })).status).to.equal(403);
    expect((await cp.as(creator.key).post('/v1/users', { email: 'm3@example.com' })).status).to.equal(200);
  });

  it('keeps users to organisation-level keys with the users scopes', async () => {
    const ws1 = await createKey(cp, { name: 'w', type: 'workspace-service', workspace_id: ws, scopes: ['*'] });
    expect((await cp.as(ws1.key).get('/v1/users')).status).to.equal(403);
    expect((await cp.as(ws1.key).post('/v1/users', { email: 'w@example.com' })).status).to.equal(403);
    const reader = await createKey(cp, { name: 'r', type: 'organisation-service', scopes: ['users.read'] });
    expect((await cp.as(reader.key).get('/v1/users')).status).to.equal(200);
    expect((await cp.as(reader.key).post('/v1/users', { email: 'r@example.com' })).status).to.equal(403);
  });

  it('deletes a user: memberships end and their keys stop working', async () => {
    const { userId } = await member(cp, ws, 'member');
    const key = await createKey(cp, { name: 'k', type: 'workspace-user', workspace_id: ws, user_id: userId, scopes: ['workspaces.read'] });
    expect((await cp.as(key.key).get('/v1/workspaces')).status).to.equal(200);
    const deleted = await cp.owner.del(`/v1/users/${userId}`);
    expect(deleted.json).to.deep.equal({ id: userId, object: 'user', deleted: true, deleted_api_keys: 1 });
    expect((await cp.as(key.key).get('/v1/workspaces')).status).to.equal(401);
    expect((await cp.owner.get(`/v1/users/${userId}`)).status).to.equal(404);
    const members = await cp.owner.get(`/v1/workspaces/${ws}/members?page_size=100`);
    expect(members.json.data.map((m: { user_id: string }) => m.user_id)).not.to.include(userId);
    expect((await cp.owner.del(`/v1/users/${userId}`)).status).to.equal(404);
  });
});
