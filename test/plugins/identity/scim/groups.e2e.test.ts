/**
 * SCIM Groups: create, get, list, PUT, PATCH of members in the shapes Okta and Entra ID send
 * (add, remove by `members[value eq "id"]`, remove with a value list, replace), DELETE, uniqueness.
 */
import { expect } from 'chai';
import { createGroup, GROUP_SCHEMA, provision, SCIM, scimErrorOf, startScimGateway, type ScimGateway } from './helpers.js';

describe('identity.scim: Groups', () => {
  let s: ScimGateway;
  let users: string[];

  before(async () => {
    s = await startScimGateway();
    users = [];
    for (let i = 0; i < 4; i++) users.push(await provision(s.idp));
  });
  after(async () => {
    await s.stop();
  });

  const memberIds = async (groupId: string): Promise<string[]> => {
    const reply = await s.idp.get(`${SCIM}/Groups/${groupId}`);
    expect(reply.status, reply.text).to.equal(200);
    return (reply.json.members ?? []).map((m: { value: string }) => m.value).sort();
  };

  it('creates a group with members (201, Location) and answers it', async () => {
    const created = await s.idp.post(`${SCIM}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'Platform', externalId: 'okta-g1', members: [{ value: users[0] }, { value: users[1] }] });
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.get('location')).to.equal(`${SCIM}/Groups/${created.json.id}`);
    expect(created.json).to.deep.include({ schemas: [GROUP_SCHEMA], displayName: 'Platform', externalId: 'okta-g1' });
    expect(created.json.members.map((m: { value: string }) => m.value).sort()).to.deep.equal([users[0], users[1]].sort());
    expect(created.json.members[0]).to.have.keys(['value', 'display', '$ref']);
    expect(created.json.meta.resourceType).to.equal('Group');
    const slim = await s.idp.get(`${SCIM}/Groups/${created.json.id}?excludedAttributes=members`);
    expect(slim.json.members).to.equal(undefined);
    expect(slim.json.displayName).to.equal('Platform');
  });

  it('refuses a taken displayName (409 uniqueness), no displayName and an unknown member (400 invalidValue)', async () => {
    await createGroup(s.idp, 'Unique');
    const again = await s.idp.post(`${SCIM}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'UNIQUE' });
    expect(scimErrorOf(again)).to.deep.include({ status: '409', scimType: 'uniqueness' });
    const unnamed = await s.idp.post(`${SCIM}/Groups`, { schemas: [GROUP_SCHEMA] });
    expect(scimErrorOf(unnamed)).to.deep.include({ status: '400', scimType: 'invalidValue' });
    const stranger = await s.idp.post(`${SCIM}/Groups`, { schemas: [GROUP_SCHEMA], displayName: 'Strangers', members: [{ value: 'nobody' }] });
    expect(scimErrorOf(stranger).detail).to.contain('nobody');
    expect((await s.idp.get(`${SCIM}/Groups/nope`)).status).to.equal(404);
  });

  it('patches members: add, remove members[value eq "id"], remove with a value list, replace, and displayName', async () => {
    const id = await createGroup(s.idp, 'Patched', [users[0]!]);
    const added = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'add', path: 'members', value: [{ value: users[1] }, { value: users[2] }, { value: users[0] }] }]);
    expect(added.status, added.text).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([users[0], users[1], users[2]].sort());

    const removedOne = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'remove', path: `members[value eq "${users[1]}"]` }]);
    expect(removedOne.status, removedOne.text).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([users[0], users[2]].sort());

    // Entra ID: Remove with a value list.
    const entra = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'Remove', path: 'members', value: [{ value: users[0] }] }]);
    expect(entra.status, entra.text).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([users[2]]);

    const replaced = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'replace', path: 'members', value: [{ value: users[3] }, { value: users[1] }] }]);
    expect(replaced.status).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([users[1], users[3]].sort());

    // Okta: replace without a path renames the group.
    const renamed = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'replace', value: { id, displayName: 'Patched Renamed' } }]);
    expect(renamed.json.displayName).to.equal('Patched Renamed');
    const all = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'remove', path: 'members' }]);
    expect(all.status).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([]);
  });

  it('refuses a PATCH adding an unknown user, renaming onto a taken name, or a bad path', async () => {
    const id = await createGroup(s.idp, 'Guarded');
    await createGroup(s.idp, 'Occupied');
    const unknown = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'add', path: 'members', value: [{ value: 'ghost' }] }]);
    expect(scimErrorOf(unknown)).to.deep.include({ status: '400', scimType: 'invalidValue' });
    const clash = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'replace', path: 'displayName', value: 'occupied' }]);
    expect(scimErrorOf(clash)).to.deep.include({ status: '409', scimType: 'uniqueness' });
    const badPath = await s.idp.patch(`${SCIM}/Groups/${id}`, [{ op: 'remove', path: 'members[value eq "x"' }]);
    expect(scimErrorOf(badPath)).to.deep.include({ scimType: 'invalidPath' });
  });

  it('replaces a group with PUT (members as listed) and deletes it (204)', async () => {
    const id = await createGroup(s.idp, 'Replaced', [users[0]!, users[1]!]);
    const put = await s.idp.put(`${SCIM}/Groups/${id}`, { schemas: [GROUP_SCHEMA], displayName: 'Replaced', members: [{ value: users[2] }] });
    expect(put.status, put.text).to.equal(200);
    expect(await memberIds(id)).to.deep.equal([users[2]]);
    const deleted = await s.idp.del(`${SCIM}/Groups/${id}`);
    expect(deleted.status).to.equal(204);
    expect((await s.idp.get(`${SCIM}/Groups/${id}`)).status).to.equal(404);
  });

  it('drops a deleted user from its groups', async () => {
    const leaving = await provision(s.idp);
    const id = await createGroup(s.idp, 'Leavers', [leaving, users[0]!]);
    expect((await s.idp.del(`${SCIM}/Users/${leaving}`)).status).to.equal(204);
    expect(await memberIds(id)).to.deep.equal([users[0]]);
  });
});
