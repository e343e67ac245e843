/**
 * POST/GET/DELETE /v1/scim/workspaces and their effects: a user in a mapped group is a member of the
 * workspace with the mapped role (the highest of several), gets the default key when
 * user_api_key_auto_create is on, and loses the membership and their workspace-user keys there on
 * leaving the group, on deactivation, on deletion and when the mapping goes; reactivation restores it.
 */
import { expect } from 'chai';
import { createGroup, oktaUser, provision, SCIM, startScimGateway, type ScimClient, type ScimGateway } from './helpers.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

describe('identity.scim: group-to-workspace mappings', () => {
  let s: ScimGateway;
  let workspaceSeq = 0;

  before(async () => {
    s = await startScimGateway();
  });
  after(async () => {
    await s.stop();
  });

  const post = (client: ScimClient, path: string, body: unknown) => client.call('POST', path, body, JSON_HEADERS);
  const map = (body: Record<string, unknown>) => post(s.idp, '/v1/scim/workspaces', body);
  const newWorkspace = async (): Promise<{ id: string; slug: string }> => {
    const reply = await post(s.admin, '/v1/workspaces', { name: `Team ${++workspaceSeq}` });
    if (reply.status !== 200) throw new Error(reply.text);
    return { id: reply.json.id, slug: reply.json.slug };
  };
  const roleIn = async (workspaceId: string, userId: string): Promise<string | undefined> => {
    const reply = await s.admin.get(`/v1/workspaces/${workspaceId}/members?page_size=100`);
    return reply.json.data.find((m: { user_id: string }) => m.user_id === userId)?.role;
  };
  const keysOf = async (workspaceId: string, userId: string): Promise<string[]> => {
    const reply = await s.admin.get(`/v1/api-keys?workspace_id=${workspaceId}&page_size=100`);
    return reply.json.data.filter((k: { user_id: string; type: string }) => k.user_id === userId && k.type === 'workspace-user').map((k: { id: string }) => k.id);
  };

  describe('the routes', () => {
    it('maps a group named by name (made when missing) to a workspace by slug, role in any case', async () => {
      const ws = await newWorkspace();
      const created = await map({ scim_group_name: 'Data Science', workspace_id: ws.slug, role: 'MaNaGeR' });
      expect(created.status, created.text).to.equal(200);
      expect(created.json).to.deep.include({ object: 'scim-workspace-mapping', scim_group_name: 'Data Science', workspace_id: ws.id, role: 'manager', scim_group_created: true });
      const group = await s.idp.get(`${SCIM}/Groups/${created.json.scim_group_id}`);
      expect(group.json.displayName).to.equal('Data Science');

      const byId = await map({ scim_group_id: created.json.scim_group_id, workspace_id: (await newWorkspace()).id, role: 'member' });
      expect(byId.status, byId.text).to.equal(200);
      expect(byId.json.scim_group_created).to.equal(false);
      const byExistingName = await map({ scim_group_name: 'data science', workspace_id: (await newWorkspace()).id, role: 'admin' });
      expect(byExistingName.json).to.deep.include({ scim_group_id: created.json.scim_group_id, scim_group_created: false });

      const got = await s.idp.get(`/v1/scim/workspaces/${created.json.id}`);
      expect(got.json).to.deep.include({ id: created.json.id, role: 'manager' });
      const listed = await s.idp.get(`/v1/scim/workspaces?scim_group_id=${created.json.scim_group_id}`);
      expect(listed.json).to.deep.include({ object: 'list', total_count: 3 });
      const ofWorkspace = await s.idp.get(`/v1/scim/workspaces?workspace_id=${ws.slug}`);
      expect(ofWorkspace.json.data.map((m: { id: string }) => m.id)).to.deep.equal([created.json.id]);

      const deleted = await s.idp.del(`/v1/scim/workspaces/${created.json.id}`);
      expect(deleted.json).to.deep.include({ id: created.json.id, deleted: true });
      expect((await s.idp.get(`/v1/scim/workspaces/${created.json.id}`)).status).to.equal(404);
      expect((await s.idp.del(`/v1/scim/workspaces/${created.json.id}`)).status).to.equal(404);
    });

    it('refuses both or neither group field, a missing workspace_id or role, a bad role, unknowns, duplicates', async () => {
      const ws = await newWorkspace();
      const groupId = await createGroup(s.idp, 'Mapped Once');
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ scim_group_name: 'A', scim_group_id: groupId, workspace_id: ws.id, role: 'member' }, 'scim_group_id', 'exactly one'],
        [{ workspace_id: ws.id, role: 'member' }, 'scim_group_name', 'one of scim_group_name and scim_group_id is required'],
        [{ scim_group_name: 'A', role: 'member' }, 'workspace_id', 'is required'],
        [{ scim_group_name: 'A', workspace_id: ws.id }, 'role', 'is required'],
        [{ scim_group_name: 'A', workspace_id: ws.id, role: 'owner' }, 'role', 'must be one of admin, manager, member'],
        [{ scim_group_name: 'A', workspace_id: 'no-such-workspace', role: 'member' }, 'workspace_id', 'no workspace'],
        [{ scim_group_id: 'no-such-group', workspace_id: ws.id, role: 'member' }, 'scim_group_id', 'no SCIM group'],
        [{ scim_group_name: 'A', workspace_id: ws.id, role: 'member', extra: 1 }, 'extra', 'is not a field'],
      ];
      for (const [body, param, message] of cases) {
        const reply = await map(body);
        expect(reply.status, JSON.stringify(body)).to.equal(400);
        expect(reply.json.error.param, JSON.stringify(body)).to.equal(param);
        expect(reply.json.error.message, JSON.stringify(body)).to.contain(message);
      }
      expect((await map({ scim_group_id: groupId, workspace_id: ws.id, role: 'member' })).status).to.equal(200);
      const duplicate = await map({ scim_group_id: groupId, workspace_id: ws.slug, role: 'admin' });
      expect(duplicate.status).to.equal(400);
      expect(duplicate.json.error.code).to.equal('duplicate');
    });

    it('needs scim.write to map and an organisation-level key', async () => {
      const ws = await newWorkspace();
      const reader = await post(s.admin, '/v1/api-keys', { name: 'r', type: 'organisation-service', scopes: ['scim.read'] });
      const refused = await post(scimClientFor(reader.json.key), '/v1/scim/workspaces', { scim_group_name: 'X', workspace_id: ws.id, role: 'member' });
      expect(refused.status).to.equal(403);
      expect(refused.json.error.message).to.contain('scim.write');
      expect((await scimClientFor(reader.json.key).get('/v1/scim/workspaces')).status).to.equal(200);
    });
  });

  const scimClientFor = (key: string): ScimClient => ({
    call: (method, path, body, headers = {}) => s.bare.call(method, path, body, { authorization: `Bearer ${key}`, ...headers }),
    get: (path) => s.bare.call('GET', path, undefined, { authorization: `Bearer ${key}` }),
    post: (path, body) => s.bare.call('POST', path, body, { authorization: `Bearer ${key}` }),
    put: (path, body) => s.bare.call('PUT', path, body, { authorization: `Bearer ${key}` }),
    patch: (path, ops) => s.bare.call('PATCH', path, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: ops }, { authorization: `Bearer ${key}` }),
    del: (path) => s.bare.call('DELETE', path, undefined, { authorization: `Bearer ${key}` }),
  });

  describe('effects on memberships and keys', () => {
    it('makes group members workspace members with the mapped role, the highest when several groups map', async () => {
      const ws = await newWorkspace();
      const ann = await provision(s.idp);
      const ben = await provision(s.idp);
      const readers = await createGroup(s.idp, `Readers ${ws.slug}`, [ann, ben]);
      await map({ scim_group_id: readers, workspace_id: ws.id, role: 'member' });
      expect(await roleIn(ws.id, ann)).to.equal('member');
      expect(await roleIn(ws.id, ben)).to.equal('member');

      const leads = await createGroup(s.idp, `Leads ${ws.slug}`);
      await map({ scim_group_id: leads, workspace_id: ws.id, role: 'admin' });
      await s.idp.patch(`${SCIM}/Groups/${leads}`, [{ op: 'add', path: 'members', value: [{ value: ann }] }]);
      expect(await roleIn(ws.id, ann)).to.equal('admin');
      expect(await roleIn(ws.id, ben)).to.equal('member');

      // Leaving the stronger group falls back to the other mapping's role.
      await s.idp.patch(`${SCIM}/Groups/${leads}`, [{ op: 'remove', path: `members[value eq "${ann}"]` }]);
      expect(await roleIn(ws.id, ann)).to.equal('member');
    });

    it('creates the default key on join when user_api_key_auto_create is on, and deletes it when the user leaves the group', async () => {
      const ws = await newWorkspace();
      await s.admin.call('PUT', `/v1/workspaces/${ws.id}/settings`, { user_api_key_auto_create: true }, JSON_HEADERS);
      const cleo = await provision(s.idp);
      const group = await createGroup(s.idp, `Keyed ${ws.slug}`);
      await map({ scim_group_id: group, workspace_id: ws.id, role: 'manager' });
      await s.idp.patch(`${SCIM}/Groups/${group}`, [{ op: 'add', path: 'members', value: [{ value: cleo }] }]);
      expect(await roleIn(ws.id, cleo)).to.equal('manager');
      const keys = await keysOf(ws.id, cleo);
      expect(keys).to.have.length(1);
      const key = (await s.admin.get(`/v1/api-keys/${keys[0]}`)).json;
      expect(key).to.deep.include({ role: 'manager', has_pending_secret: true });
      const secret = (await s.admin.get(`/v1/api-keys/${keys[0]}/pending-secret`)).json.key as string;
      const asCleo = () => s.bare.call('GET', '/v1/api-keys', undefined, { 'x-gw-api-key': secret });
      expect((await asCleo()).status).to.equal(200);

      await s.idp.patch(`${SCIM}/Groups/${group}`, [{ op: 'remove', path: `members[value eq "${cleo}"]` }]);
      expect(await roleIn(ws.id, cleo)).to.equal(undefined);
      expect(await keysOf(ws.id, cleo)).to.deep.equal([]);
      expect((await s.admin.get(`/v1/api-keys/${keys[0]}`)).json.status).to.equal('deleted');
      expect((await asCleo()).status).to.equal(401);
    });

    it('removes memberships and keys on deactivation, restores the membership on reactivation', async () => {
      const ws = await newWorkspace();
      const manual = await newWorkspace();
      await s.admin.call('PUT', `/v1/workspaces/${ws.id}/settings`, { user_api_key_auto_create: true }, JSON_HEADERS);
      const dan = await provision(s.idp);
      const group = await createGroup(s.idp, `Deactivated ${ws.slug}`, [dan]);
      await map({ scim_group_id: group, workspace_id: ws.id, role: 'member' });
      // A membership made by hand ends too: a deactivated person belongs nowhere.
      await post(s.admin, `/v1/workspaces/${manual.id}/members`, { user_id: dan, role: 'member' });
      expect(await keysOf(ws.id, dan)).to.have.length(1);

      const off = await s.idp.patch(`${SCIM}/Users/${dan}`, [{ op: 'replace', path: 'active', value: false }]);
      expect(off.json.active).to.equal(false);
      expect(await roleIn(ws.id, dan)).to.equal(undefined);
      expect(await roleIn(manual.id, dan)).to.equal(undefined);
      expect(await keysOf(ws.id, dan)).to.deep.equal([]);

      const on = await s.idp.patch(`${SCIM}/Users/${dan}`, [{ op: 'replace', value: { active: true } }]);
      expect(on.json.active).to.equal(true);
      expect(await roleIn(ws.id, dan)).to.equal('member');
      expect(await keysOf(ws.id, dan)).to.have.length(1);
    });

    it('removes memberships and keys when the user is deleted, and when the mapping or the group goes', async () => {
      const ws = await newWorkspace();
      await s.admin.call('PUT', `/v1/workspaces/${ws.id}/settings`, { user_api_key_auto_create: true }, JSON_HEADERS);
      const eve = await provision(s.idp);
      const fay = await provision(s.idp);
      const gus = await provision(s.idp);
      const group = await createGroup(s.idp, `Gone ${ws.slug}`, [eve, fay, gus]);
      const mapping = (await map({ scim_group_id: group, workspace_id: ws.id, role: 'member' })).json;
      const eveKeys = await keysOf(ws.id, eve);
      expect(eveKeys).to.have.length(1);

      expect((await s.idp.del(`${SCIM}/Users/${eve}`)).status).to.equal(204);
      expect(await roleIn(ws.id, eve)).to.equal(undefined);
      expect((await s.admin.get(`/v1/api-keys/${eveKeys[0]}`)).json.status).to.equal('deleted');

      await s.idp.del(`/v1/scim/workspaces/${mapping.id}`);
      expect(await roleIn(ws.id, fay)).to.equal(undefined);
      expect(await keysOf(ws.id, fay)).to.deep.equal([]);

      await map({ scim_group_id: group, workspace_id: ws.id, role: 'member' });
      expect(await roleIn(ws.id, gus)).to.equal('member');
      expect((await s.idp.del(`${SCIM}/Groups/${group}`)).status).to.equal(204);
      expect(await roleIn(ws.id, gus)).to.equal(undefined);
      expect((await s.idp.get(`/v1/scim/workspaces?workspace_id=${ws.id}`)).json.total_count).to.equal(0);
    });

    it('leaves memberships made by hand in workspaces no mapping names', async () => {
      const mapped = await newWorkspace();
      const other = await newWorkspace();
      const hal = await provision(s.idp);
      await post(s.admin, `/v1/workspaces/${other.id}/members`, { user_id: hal, role: 'manager' });
      const group = await createGroup(s.idp, `Hand ${mapped.slug}`, [hal]);
      await map({ scim_group_id: group, workspace_id: mapped.id, role: 'member' });
      await s.idp.patch(`${SCIM}/Groups/${group}`, [{ op: 'replace', path: 'members', value: [] }]);
      expect(await roleIn(mapped.id, hal)).to.equal(undefined);
      expect(await roleIn(other.id, hal)).to.equal('manager');
    });
  });
});

describe('identity.scim: SCIM_MEMBERSHIP_USER_MODE=ON', () => {
  let s: ScimGateway;

  before(async () => {
    s = await startScimGateway({ SCIM_MEMBERSHIP_USER_MODE: 'ON' });
  });
  after(async () => {
    await s.stop();
  });

  it('sets group membership through Users (POST, PATCH, PUT) and answers groups in users', async () => {
    const ws = (await s.admin.call('POST', '/v1/workspaces', { name: 'Mode' }, JSON_HEADERS)).json.id;
    const alpha = await createGroup(s.idp, 'Alpha');
    const beta = await createGroup(s.idp, 'Beta');
    await s.idp.call('POST', '/v1/scim/workspaces', { scim_group_id: beta, workspace_id: ws, role: 'admin' }, JSON_HEADERS);

    const created = await s.idp.post(`${SCIM}/Users`, oktaUser('mode@example.com', { groups: [{ value: alpha }] }));
    expect(created.status, created.text).to.equal(201);
    expect(created.json.groups).to.deep.equal([{ value: alpha, display: 'Alpha', $ref: `${SCIM}/Groups/${alpha}` }]);
    const id = created.json.id;

    const patched = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'add', path: 'groups', value: [{ value: beta }] }]);
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.json.groups.map((g: { display: string }) => g.display)).to.deep.equal(['Alpha', 'Beta']);
    const members = await s.admin.get(`/v1/workspaces/${ws}/members`);
    expect(members.json.data.find((m: { user_id: string }) => m.user_id === id)?.role).to.equal('admin');

    const removed = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'remove', path: `groups[value eq "${beta}"]` }]);
    expect(removed.json.groups.map((g: { display: string }) => g.display)).to.deep.equal(['Alpha']);
    expect((await s.admin.get(`/v1/workspaces/${ws}/members`)).json.data.find((m: { user_id: string }) => m.user_id === id)).to.equal(undefined);

    const put = await s.idp.put(`${SCIM}/Users/${id}`, oktaUser('mode@example.com', { groups: [] }));
    expect(put.json.groups).to.deep.equal([]);
    const group = await s.idp.get(`${SCIM}/Groups/${alpha}`);
    expect(group.json.members).to.deep.equal([]);

    const unknown = await s.idp.post(`${SCIM}/Users`, oktaUser('mode2@example.com', { groups: [{ value: 'no-group' }] }));
    expect(unknown.status).to.equal(400);
    expect(unknown.json.scimType).to.equal('invalidValue');
    expect((await provision(s.idp, oktaUser('mode3@example.com'))).length).to.be.greaterThan(0);
  });
});
