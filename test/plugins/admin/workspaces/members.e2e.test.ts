/**
 * Workspace membership: roles (any case), who may manage whom, a user key's principal following its
 * member's role, removal deleting the member's keys, and user_api_key_auto_create.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createKey, DAY, defaultWorkspaceId, member, startControlPlane, userKey, type ControlPlane } from '../api-keys/helpers.js';

describe('admin.workspaces: members', () => {
  let cp: ControlPlane;
  let ws: string;

  before(async () => {
    cp = await startControlPlane();
    ws = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp.stop();
  });

  const newUser = async (email = `${randomUUID()}@example.com`) => (await cp.owner.post('/v1/users', { email, name: 'N' })).json.id as string;

  it('adds a member with a case-insensitive role and lists members', async () => {
    const userId = await newUser('mixed@example.com');
    const added = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId, role: 'MaNaGeR' });
    expect(added.status, added.text).to.equal(200);
    expect(added.json).to.deep.include({ object: 'workspace-member', workspace_id: ws, user_id: userId, role: 'manager', email: 'mixed@example.com', api_key: null });
    const list = await cp.owner.get('/v1/workspaces/default/members');
    expect(list.json.object).to.equal('list');
    expect(list.json.data.map((m: { user_id: string }) => m.user_id)).to.include(userId);
  });

  it('refuses a bad role, an unknown user, a duplicate membership, an archived workspace', async () => {
    const userId = await newUser();
    const badRole = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId, role: 'owner' });
    expect(badRole.json.error.message).to.contain('body.role: must be one of admin, manager, member');
    const unknown = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: randomUUID(), role: 'member' });
    expect(unknown.status).to.equal(400);
    expect(unknown.json.error.param).to.equal('user_id');
    await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId, role: 'member' });
    const dup = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId, role: 'admin' });
    expect(dup.json.error.code).to.equal('duplicate');
    const archived = (await cp.owner.post('/v1/workspaces', { name: 'Gone' })).json.id;
    await cp.owner.del(`/v1/workspaces/${archived}`);
    expect((await cp.owner.post(`/v1/workspaces/${archived}/members`, { user_id: userId, role: 'member' })).json.error.code).to.equal('workspace_archived');
    expect((await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId })).status).to.equal(400);
  });

  it('lets managers manage members and managers, only admins touch admins, members nothing', async () => {
    const scopes = ['workspace_users.*'];
    const manager = await userKey(cp, ws, 'manager', scopes);
    const admin = await userKey(cp, ws, 'admin', scopes);
    const plain = await userKey(cp, ws, 'member', scopes);
    const m = cp.as(manager.key);

    expect((await m.post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'member' })).status).to.equal(200);
    expect((await m.post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'manager' })).status).to.equal(200);
    expect((await m.post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'admin' })).status).to.equal(403);
    expect((await m.put(`/v1/workspaces/${ws}/members/${plain.userId}`, { role: 'admin' })).status).to.equal(403);
    expect((await m.put(`/v1/workspaces/${ws}/members/${admin.userId}`, { role: 'member' })).status).to.equal(403);
    expect((await m.del(`/v1/workspaces/${ws}/members/${admin.userId}`)).status).to.equal(403);
    expect((await cp.as(admin.key).post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'admin' })).status).to.equal(200);

    const p = cp.as(plain.key);
    expect((await p.get(`/v1/workspaces/${ws}/members`)).status).to.equal(200);
    expect((await p.post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'member' })).status).to.equal(403);
    expect((await p.del(`/v1/workspaces/${ws}/members/${manager.userId}`)).status).to.equal(403);

    const reader = await createKey(cp, { name: 'r', type: 'organisation-service', scopes: ['workspace_users.read'] });
    expect((await cp.as(reader.key).get(`/v1/workspaces/${ws}/members`)).status).to.equal(200);
    expect((await cp.as(reader.key).post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'member' })).status).to.equal(403);
  });

  it('refuses a workspace key on another workspace\'s members', async () => {
    const other = (await cp.owner.post('/v1/workspaces', { name: 'Elsewhere' })).json.id;
    const admin = await userKey(cp, ws, 'admin', ['*']);
    expect((await cp.as(admin.key).get(`/v1/workspaces/${other}/members`)).status).to.equal(403);
    expect((await cp.as(admin.key).post(`/v1/workspaces/${other}/members`, { user_id: admin.userId, role: 'admin' })).status).to.equal(403);
  });

  it('carries the member\'s workspace role in the key\'s principal, following role changes', async () => {
    const plain = await userKey(cp, ws, 'member', ['api_keys.read']);
    const other = await userKey(cp, ws, 'member');
    const c = cp.as(plain.key);
    // As a member, the key reads only its own user's keys.
    expect((await c.get(`/v1/api-keys/${other.id}`)).status).to.equal(403);
    const promoted = await cp.owner.put(`/v1/workspaces/${ws}/members/${plain.userId}`, { role: 'Manager' });
    expect(promoted.json.role).to.equal('manager');
    expect((await cp.owner.get(`/v1/api-keys/${plain.id}`)).json.role).to.equal('manager');
    expect((await c.get(`/v1/api-keys/${other.id}`)).status).to.equal(200);
  });

  it('removes a member: their keys in that workspace stop working at once, elsewhere not', async () => {
    const other = (await cp.owner.post('/v1/workspaces', { name: 'Second' })).json.id;
    const { userId } = await member(cp, ws, 'member');
    await cp.owner.post(`/v1/workspaces/${other}/members`, { user_id: userId, role: 'member' });
    const here = await createKey(cp, { name: 'here', type: 'workspace-user', workspace_id: ws, user_id: userId, scopes: ['workspaces.read'] });
    const there = await createKey(cp, { name: 'there', type: 'workspace-user', workspace_id: other, user_id: userId, scopes: ['workspaces.read'] });
    const removed = await cp.owner.del(`/v1/workspaces/${ws}/members/${userId}`);
    expect(removed.json).to.deep.include({ deleted: true, deleted_api_keys: 1, user_id: userId });
    expect((await cp.as(here.key).get('/v1/workspaces')).status).to.equal(401);
    expect((await cp.as(there.key).get('/v1/workspaces')).status).to.equal(200);
    expect((await cp.owner.get(`/v1/api-keys/${here.id}`)).json.status).to.equal('deleted');
    expect((await cp.owner.del(`/v1/workspaces/${ws}/members/${userId}`)).status).to.equal(404);
  });

  describe('user_api_key_auto_create', () => {
    it('makes no key while the setting is off', async () => {
      const joined = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: await newUser(), role: 'member' });
      expect(joined.json.api_key).to.equal(null);
    });

    it('makes a default workspace-user key on join, inheriting ttl and the enforced period; its secret read once', async () => {
      await cp.owner.put('/v1/organisation/settings', { user_api_key_auto_create: true, user_api_key_ttl: 7 * 86_400, user_api_key_rotation_period: 'monthly' });
      const userId = await newUser('joiner@example.com');
      const joined = await cp.owner.post(`/v1/workspaces/${ws}/members`, { user_id: userId, role: 'member' });
      expect(joined.json.api_key).to.deep.include({ has_pending_secret: true });
      const record = (await cp.owner.get(`/v1/api-keys/${joined.json.api_key.id}`)).json;
      expect(record).to.deep.include({ type: 'workspace-user', workspace_id: ws, user_id: userId, role: 'member', rotation_period_days: 30 });
      expect(record.scopes).to.deep.equal(['api_keys.read', 'api_keys.rotate', 'workspaces.read', 'workspace_users.read']);
      expect(record.rotation_policy.rotation_period).to.equal('monthly');
      expect(Date.parse(record.expires_at) - cp.clock.now()).to.equal(7 * DAY);
      const secret = await cp.owner.get(`/v1/api-keys/${record.id}/pending-secret`);
      expect(secret.status).to.equal(200);
      expect((await cp.owner.get(`/v1/api-keys/${record.id}/pending-secret`)).status).to.equal(404);
      const mine = await cp.as(secret.json.key).get('/v1/api-keys');
      expect(mine.json.data.map((k: { id: string }) => k.id)).to.deep.equal([record.id]);
      await cp.owner.put('/v1/organisation/settings', { user_api_key_ttl: null, user_api_key_rotation_period: null });
    });

    it('follows the workspace override', async () => {
      const quiet = (await cp.owner.post('/v1/workspaces', { name: 'Quiet' })).json.id;
      await cp.owner.put(`/v1/workspaces/${quiet}/settings`, { user_api_key_auto_create: false });
      const off = await cp.owner.post(`/v1/workspaces/${quiet}/members`, { user_id: await newUser(), role: 'member' });
      expect(off.json.api_key).to.equal(null);
      await cp.owner.put('/v1/organisation/settings', { user_api_key_auto_create: false });
      const loud = (await cp.owner.post('/v1/workspaces', { name: 'Loud' })).json.id;
      await cp.owner.put(`/v1/workspaces/${loud}/settings`, { user_api_key_auto_create: true });
      const on = await cp.owner.post(`/v1/workspaces/${loud}/members`, { user_id: await newUser(), role: 'admin' });
      expect(on.json.api_key).to.not.equal(null);
      expect((await cp.owner.get(`/v1/api-keys/${on.json.api_key.id}`)).json.role).to.equal('admin');
    });
  });
});
