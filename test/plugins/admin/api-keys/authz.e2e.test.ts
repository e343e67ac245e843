/**
 * Who may do what on /v1/api-keys: scopes (each route's, `*.rotate`, wildcards), the workspace
 * boundary, workspace roles, no granting beyond one's own scopes, owner keys, other organisations.
 */
import { expect } from 'chai';
import { Services } from '../../../../core/index.js';
import { hashKey } from '../../../../plugins/security/api-key-auth/key-store.js';
import { createKey, defaultWorkspaceId, member, startControlPlane, userKey, type Client, type ControlPlane, type Reply } from './helpers.js';

describe('admin.api-keys: authorisation', () => {
  let cp: ControlPlane;
  let wsA: string;
  let wsB: string;
  const keys: Record<string, { key: string; id: string; userId?: string }> = {};
  const as = (name: string): Client => cp.as(keys[name]!.key);

  before(async () => {
    cp = await startControlPlane();
    wsA = await defaultWorkspaceId(cp);
    wsB = (await cp.owner.post('/v1/workspaces', { name: 'B' })).json.id;
    const org = async (name: string, scopes: string[]) => {
      keys[name] = await createKey(cp, { name, type: 'organisation-service', scopes });
    };
    await org('orgRead', ['api_keys.read']);
    await org('orgKeys', ['api_keys.*']);
    await org('orgRotate', ['*.rotate', 'api_keys.read']);
    await org('orgAdmin', ['*']);
    keys['wsAService'] = await createKey(cp, { name: 'a', type: 'workspace-service', workspace_id: wsA, scopes: ['api_keys.*'] });
    keys['wsBService'] = await createKey(cp, { name: 'b', type: 'workspace-service', workspace_id: wsB, scopes: ['api_keys.*'] });
    for (const role of ['member', 'manager', 'admin']) keys[role] = await userKey(cp, wsA, role, ['api_keys.*']);
    // A key of another organisation, straight into the store (the routes make keys of the caller's organisation only).
    const store = cp.gw.gateway.runtime.services.get(Services.Records);
    await store.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ['other-org-key', 'other', 'organisation-service', hashKey('gw-other-org'), 'org-b', '["*"]', Math.floor(Date.now() / 1000)],
    );
    keys['otherOrg'] = { key: 'gw-other-org', id: 'other-org-key' };
  });
  after(async () => {
    await cp.stop();
  });

  const forbidden = (reply: Reply, why?: string) => {
    expect(reply.status, reply.text).to.equal(403);
    expect(reply.json.error.type).to.equal('permission_error');
    if (why) expect(reply.json.error.message).to.contain(why);
  };
  const target = (scopes: string[] = []) => createKey(cp, { name: 'target', type: 'organisation-service', scopes });

  it('needs a known key: 401 without one or with an unknown one', async () => {
    const bare = await fetch(cp.gw.url + '/v1/api-keys');
    expect(bare.status).to.equal(401);
    expect((await cp.as('gw-nope').get('/v1/api-keys')).status).to.equal(401);
  });

  it('needs the route\'s scope: api_keys.read reads but does not write', async () => {
    const t = await target();
    expect((await as('orgRead').get('/v1/api-keys')).status).to.equal(200);
    expect((await as('orgRead').get(`/v1/api-keys/${t.id}`)).status).to.equal(200);
    forbidden(await as('orgRead').post('/v1/api-keys', { name: 'x', type: 'organisation-service' }), 'api_keys.create');
    forbidden(await as('orgRead').put(`/v1/api-keys/${t.id}`, { name: 'x' }), 'api_keys.update');
    forbidden(await as('orgRead').del(`/v1/api-keys/${t.id}`), 'api_keys.delete');
    forbidden(await as('orgRead').post(`/v1/api-keys/${t.id}/rotate`), 'api_keys.rotate');
    const made = await as('orgKeys').post('/v1/api-keys', { name: 'x', type: 'organisation-service', scopes: ['api_keys.read'] });
    expect(made.status).to.equal(200);
    expect((await as('orgKeys').del(`/v1/api-keys/${made.json.id}`)).status).to.equal(200);
  });

  it('lets *.rotate rotate, and only keys whose scopes the caller holds', async () => {
    const plain = await target();
    const rotated = await as('orgRotate').post(`/v1/api-keys/${plain.id}/rotate`);
    expect(rotated.status, rotated.text).to.equal(200);
    expect(rotated.json.key).to.be.a('string');
    const mightier = await target(['api_keys.create']);
    forbidden(await as('orgRotate').post(`/v1/api-keys/${mightier.id}/rotate`), 'api_keys.create');
    forbidden(await as('orgRotate').post('/v1/api-keys', { name: 'x', type: 'organisation-service' }));
  });

  it('never grants more scopes than the caller holds', async () => {
    forbidden(await as('orgKeys').post('/v1/api-keys', { name: 'x', type: 'organisation-service', scopes: ['*'] }), 'the scope *');
    forbidden(await as('orgKeys').post('/v1/api-keys', { name: 'x', type: 'organisation-service', scopes: ['workspaces.read'] }));
    forbidden(await as('orgKeys').post('/v1/api-keys', { name: 'x', type: 'organisation-service', scopes: ['*.read'] }));
    const mine = await as('orgKeys').post('/v1/api-keys', { name: 'x', type: 'organisation-service', scopes: ['api_keys.read', 'api_keys.*'] });
    expect(mine.status).to.equal(200);
    forbidden(await as('orgKeys').put(`/v1/api-keys/${mine.json.id}`, { scopes: ['workspaces.*'] }));
  });

  it('keeps a workspace key in its workspace', async () => {
    const a = as('wsAService');
    const own = await a.post('/v1/api-keys', { name: 'own', type: 'workspace-service' });
    expect(own.status, own.text).to.equal(200);
    expect(own.json.workspace_id).to.equal(wsA);
    forbidden(await a.post('/v1/api-keys', { name: 'x', type: 'workspace-service', workspace_id: wsB }), `workspace ${wsB}`);
    forbidden(await a.post('/v1/api-keys', { name: 'x', type: 'organisation-service' }));
    forbidden(await a.get(`/v1/api-keys/${keys['wsBService']!.id}`));
    forbidden(await a.get(`/v1/api-keys/${keys['orgRead']!.id}`));
    forbidden(await a.post(`/v1/api-keys/${keys['wsBService']!.id}/rotate`));
    forbidden(await a.get(`/v1/api-keys?workspace_id=${wsB}`));
    const listed = await a.get('/v1/api-keys');
    expect(listed.json.data.length).to.be.greaterThan(0);
    for (const key of listed.json.data) expect(key.workspace_id).to.equal(wsA);
    // The B key, likewise, sees nothing of A.
    forbidden(await as('wsBService').get(`/v1/api-keys/${own.json.id}`));
  });

  it('lets a workspace member manage only their own keys', async () => {
    const m = as('member');
    const listed = await m.get('/v1/api-keys');
    expect(listed.json.data.map((k: { user_id: string }) => k.user_id)).to.deep.equal([keys['member']!.userId]);
    forbidden(await m.get(`/v1/api-keys?user_id=${keys['manager']!.userId}`));
    const second = await m.post('/v1/api-keys', { name: 'second', type: 'workspace-user', scopes: ['api_keys.read'] });
    expect(second.status, second.text).to.equal(200);
    expect(second.json).to.deep.include({ user_id: keys['member']!.userId, workspace_id: wsA, role: 'member' });
    forbidden(await m.post('/v1/api-keys', { name: 'x', type: 'workspace-user', user_id: keys['manager']!.userId }), 'only for themselves');
    forbidden(await m.post('/v1/api-keys', { name: 'x', type: 'workspace-service' }));
    forbidden(await m.get(`/v1/api-keys/${keys['manager']!.id}`), 'own API keys');
    forbidden(await m.post(`/v1/api-keys/${keys['wsAService']!.id}/rotate`));
    expect((await m.post(`/v1/api-keys/${second.json.id}/rotate`)).status).to.equal(200);
  });

  it('lets managers and admins manage every key of their workspace', async () => {
    for (const role of ['manager', 'admin']) {
      const c = as(role);
      const listed = await c.get('/v1/api-keys');
      expect(listed.json.data.map((k: { id: string }) => k.id)).to.include.members([keys['member']!.id, keys['wsAService']!.id]);
      const made = await c.post('/v1/api-keys', { name: 'for member', type: 'workspace-user', user_id: keys['member']!.userId });
      expect(made.status, made.text).to.equal(200);
      expect((await c.post('/v1/api-keys', { name: 'svc', type: 'workspace-service' })).status).to.equal(200);
      expect((await c.put(`/v1/api-keys/${made.json.id}`, { name: 'renamed' })).status).to.equal(200);
      expect((await c.del(`/v1/api-keys/${made.json.id}`)).status).to.equal(200);
    }
  });

  it('lets only admins read a pending secret', async () => {
    const { userId } = await member(cp, wsA, 'member');
    const scheduled = await createKey(cp, { name: 'p', type: 'workspace-user', workspace_id: wsA, user_id: userId, rotation_policy: { rotation_period: 'weekly' } });
    // Rotated by the scheduler's own code path, without waiting a week.
    await cp.gw.gateway.runtime.services.get(Services.KeyStore)
      .rotate(scheduled.id, undefined, { pending: true });
    forbidden(await as('manager').get(`/v1/api-keys/${scheduled.id}/pending-secret`), 'only an admin');
    forbidden(await as('orgRead').get(`/v1/api-keys/${keys['orgKeys']!.id}/pending-secret`));
    const read = await as('admin').get(`/v1/api-keys/${scheduled.id}/pending-secret`);
    expect(read.status, read.text).to.equal(200);
    expect(read.json.key).to.be.a('string');
  });

  it('lets only an owner key manage the owner key', async () => {
    const owner = (await cp.owner.get('/v1/api-keys?type=organisation-owner')).json.data[0];
    forbidden(await as('orgAdmin').post(`/v1/api-keys/${owner.id}/rotate`), 'organisation owner');
    forbidden(await as('orgAdmin').put(`/v1/api-keys/${owner.id}`, { name: 'mine now' }));
    expect((await as('orgAdmin').get(`/v1/api-keys/${owner.id}`)).status).to.equal(200);
  });

  it('hides other organisations\' keys (404) and lists only the caller\'s organisation', async () => {
    const other = as('otherOrg');
    expect((await other.get(`/v1/api-keys/${keys['orgRead']!.id}`)).status).to.equal(404);
    expect((await other.post(`/v1/api-keys/${keys['orgRead']!.id}/rotate`)).status).to.equal(404);
    const listed = await other.get('/v1/api-keys');
    expect(listed.json.data.map((k: { id: string }) => k.id)).to.deep.equal(['other-org-key']);
    expect((await cp.owner.get('/v1/api-keys/other-org-key')).status).to.equal(404);
    // Workspaces of another organisation are unknown to it.
    const foreign = await other.post('/v1/api-keys', { name: 'x', type: 'workspace-service', workspace_id: wsA });
    expect(foreign.status).to.equal(400);
    expect(foreign.json.error.message).to.contain(`no workspace "${wsA}"`);
  });
});
