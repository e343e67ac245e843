/**
 * SCIM Users as an identity provider drives them: create, get, replace, patch (Okta's and Entra ID's
 * shapes), delete, uniqueness, and the person in admin.workspaces following along.
 */
import { expect } from 'chai';
import { LIST_SCHEMA, oktaUser, provision, SCIM, SCIM_CONTENT_TYPE, scimErrorOf, startScimGateway, USER_SCHEMA, type ScimGateway } from './helpers.js';

describe('identity.scim: Users', () => {
  let s: ScimGateway;

  before(async () => {
    s = await startScimGateway();
  });
  after(async () => {
    await s.stop();
  });

  it('creates a user (201, Location, application/scim+json) and the person behind it', async () => {
    const created = await s.idp.post(`${SCIM}/Users`, oktaUser('Ada.Lovelace@Example.com', { externalId: '00u1', title: 'Countess', password: 'never-kept-1' }));
    expect(created.status, created.text).to.equal(201);
    expect(created.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(created.headers.get('location')).to.equal(`${SCIM}/Users/${created.json.id}`);
    expect(created.json).to.deep.include({ userName: 'Ada.Lovelace@Example.com', externalId: '00u1', active: true, title: 'Countess', displayName: 'Ada.Lovelace Tester' });
    expect(created.json.schemas).to.deep.equal([USER_SCHEMA]);
    expect(created.json.password).to.equal(undefined);
    expect(created.text).to.not.contain('never-kept-1');
    expect(created.json.meta).to.deep.include({ resourceType: 'User', location: `${SCIM}/Users/${created.json.id}` });
    const person = await s.admin.get(`/v1/users/${created.json.id}`);
    expect(person.status).to.equal(200);
    expect(person.json).to.deep.include({ email: 'ada.lovelace@example.com', name: 'Ada.Lovelace Tester', role: 'member' });

    const got = await s.idp.get(`${SCIM}/Users/${created.json.id}`);
    expect(got.status).to.equal(200);
    expect(got.json.userName).to.equal('Ada.Lovelace@Example.com');
  });

  it('refuses a taken userName (any case) and an email of another SCIM user with 409 uniqueness', async () => {
    await provision(s.idp, oktaUser('taken@example.com'));
    const again = await s.idp.post(`${SCIM}/Users`, oktaUser('TAKEN@example.com'));
    expect(again.status).to.equal(409);
    expect(scimErrorOf(again)).to.deep.include({ status: '409', scimType: 'uniqueness' });
    const sameEmail = await s.idp.post(`${SCIM}/Users`, { ...oktaUser('other-name'), emails: [{ value: 'taken@example.com', primary: true }] });
    expect(sameEmail.status).to.equal(409);
    expect(scimErrorOf(sameEmail).detail).to.contain('taken@example.com');
  });

  it('links a person the organisation already has instead of making a second one', async () => {
    const existing = await s.admin.call('POST', '/v1/users', { email: 'known@example.com', name: 'Known' }, { 'content-type': 'application/json' });
    expect(existing.status).to.equal(200);
    const linked = await s.idp.post(`${SCIM}/Users`, oktaUser('known@example.com'));
    expect(linked.status).to.equal(201);
    expect(linked.json.id).to.equal(existing.json.id);
    expect((await s.admin.get(`/v1/users?email=known@example.com`)).json.total_count).to.equal(1);
  });

  it('refuses a user without userName or email (400 invalidValue), a body that is not JSON (400 invalidSyntax)', async () => {
    const noName = await s.idp.post(`${SCIM}/Users`, { schemas: [USER_SCHEMA], emails: [{ value: 'x@example.com' }] });
    expect(noName.status).to.equal(400);
    expect(scimErrorOf(noName)).to.deep.include({ status: '400', scimType: 'invalidValue' });
    expect(noName.json.detail).to.contain('userName');
    const noEmail = await s.idp.post(`${SCIM}/Users`, { schemas: [USER_SCHEMA], userName: 'no-email' });
    expect(scimErrorOf(noEmail)).to.deep.include({ status: '400', scimType: 'invalidValue' });
    expect(noEmail.json.detail).to.contain('email');
    const badActive = await s.idp.post(`${SCIM}/Users`, oktaUser(undefined, { active: 'maybe' }));
    expect(scimErrorOf(badActive).detail).to.contain('active');
    const garbage = await s.idp.post(`${SCIM}/Users`, '{"userName": ');
    expect(garbage.status).to.equal(400);
    expect(scimErrorOf(garbage)).to.deep.include({ scimType: 'invalidSyntax' });
  });

  it('answers 404 in the SCIM error schema for an unknown id', async () => {
    const missing = await s.idp.get(`${SCIM}/Users/nope`);
    expect(missing.status).to.equal(404);
    expect(scimErrorOf(missing)).to.deep.include({ status: '404' });
  });

  it('replaces a user with PUT: userName, name, email follow; a taken userName is 409', async () => {
    const id = await provision(s.idp, oktaUser('put-me@example.com'));
    const replaced = await s.idp.put(`${SCIM}/Users/${id}`, {
      schemas: [USER_SCHEMA], userName: 'put-renamed@example.com', name: { givenName: 'Put', familyName: 'Renamed' },
      emails: [{ value: 'Put-Renamed@example.com', primary: true }], active: true,
    });
    expect(replaced.status, replaced.text).to.equal(200);
    expect(replaced.json).to.deep.include({ id, userName: 'put-renamed@example.com' });
    expect(replaced.json.displayName).to.equal(undefined);
    const person = (await s.admin.get(`/v1/users/${id}`)).json;
    expect(person).to.deep.include({ email: 'put-renamed@example.com', name: 'Put Renamed' });

    await provision(s.idp, oktaUser('occupied@example.com'));
    const clash = await s.idp.put(`${SCIM}/Users/${id}`, { ...oktaUser('Occupied@example.com'), emails: [{ value: 'put-renamed@example.com' }] });
    expect(scimErrorOf(clash)).to.deep.include({ status: '409', scimType: 'uniqueness' });
  });

  it('patches the way Okta does (replace without a path) and the way Entra ID does (Replace, path, "False")', async () => {
    const id = await provision(s.idp, oktaUser('patch-me@example.com'));
    const okta = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'replace', value: { active: false, displayName: 'Okta Patched' } }]);
    expect(okta.status, okta.text).to.equal(200);
    expect(okta.json).to.deep.include({ active: false, displayName: 'Okta Patched' });

    const entra = await s.idp.patch(`${SCIM}/Users/${id}`, [
      { op: 'Replace', path: 'active', value: 'True' },
      { op: 'Add', path: 'name.givenName', value: 'Entra' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'entra-patched@example.com' },
      { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Research' },
      { op: 'Add', path: 'externalId', value: 'ext-1' },
    ]);
    expect(entra.status, entra.text).to.equal(200);
    expect(entra.json.active).to.equal(true);
    expect(entra.json.name.givenName).to.equal('Entra');
    expect(entra.json.emails).to.deep.equal([{ primary: true, value: 'entra-patched@example.com', type: 'work' }]);
    expect(entra.json['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).to.deep.equal({ department: 'Research' });
    expect(entra.json.schemas).to.include('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User');
    expect((await s.admin.get(`/v1/users/${id}`)).json.email).to.equal('entra-patched@example.com');

    const removed = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'remove', path: 'externalId' }]);
    expect(removed.json.externalId).to.equal(undefined);
  });

  it('refuses malformed PatchOps: no schema, bad op, remove without path, bad path, no target', async () => {
    const id = await provision(s.idp);
    const noSchema = await s.idp.call('PATCH', `${SCIM}/Users/${id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(scimErrorOf(noSchema)).to.deep.include({ status: '400', scimType: 'invalidSyntax' });
    const badOp = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'merge', path: 'active', value: false }]);
    expect(scimErrorOf(badOp).detail).to.contain('op');
    const noPath = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'remove' }]);
    expect(scimErrorOf(noPath)).to.deep.include({ scimType: 'noTarget' });
    const badPath = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'replace', path: 'emails[type eq]', value: 'x' }]);
    expect(scimErrorOf(badPath)).to.deep.include({ scimType: 'invalidPath' });
    const noTarget = await s.idp.patch(`${SCIM}/Users/${id}`, [{ op: 'replace', path: 'emails[type eq "work" and primary eq true].value', value: 'x@example.com' }, { op: 'replace', path: 'phoneNumbers[type pr]', value: { value: '1' } }]);
    expect(scimErrorOf(noTarget)).to.deep.include({ scimType: 'noTarget' });
    const unknown = await s.idp.patch(`${SCIM}/Users/nope`, [{ op: 'replace', path: 'active', value: false }]);
    expect(unknown.status).to.equal(404);
  });

  it('deletes a user (204): the SCIM record and the person are gone', async () => {
    const id = await provision(s.idp);
    const deleted = await s.idp.del(`${SCIM}/Users/${id}`);
    expect(deleted.status).to.equal(204);
    expect(deleted.text).to.equal('');
    expect((await s.idp.get(`${SCIM}/Users/${id}`)).status).to.equal(404);
    expect((await s.admin.get(`/v1/users/${id}`)).status).to.equal(404);
    expect((await s.idp.del(`${SCIM}/Users/${id}`)).status).to.equal(404);
  });

  it('follows a person removed outside SCIM: the next PUT answers 404 and the SCIM record is gone', async () => {
    const id = await provision(s.idp, oktaUser('removed-by-admin@example.com'));
    expect((await s.admin.del(`/v1/users/${id}`)).status).to.equal(200);
    const put = await s.idp.put(`${SCIM}/Users/${id}`, oktaUser('removed-by-admin@example.com'));
    expect(scimErrorOf(put)).to.deep.include({ status: '404' });
    expect((await s.idp.get(`${SCIM}/Users/${id}`)).status).to.equal(404);
  });

  it('keeps an organisation owner from being deleted by a SCIM key (403)', async () => {
    const owner = await s.admin.call('POST', '/v1/users', { email: 'boss@example.com', role: 'owner' }, { 'content-type': 'application/json' });
    const linked = await provision(s.idp, oktaUser('boss@example.com'));
    expect(linked).to.equal(owner.json.id);
    const refused = await s.idp.del(`${SCIM}/Users/${linked}`);
    expect(refused.status).to.equal(403);
    expect(scimErrorOf(refused).detail).to.contain('owner');
  });

  it('answers lists as ListResponse messages', async () => {
    const list = await s.idp.get(`${SCIM}/Users?count=1`);
    expect(list.status).to.equal(200);
    expect(list.headers.get('content-type')).to.match(new RegExp(`^${SCIM_CONTENT_TYPE.replace('+', '\\+')}`));
    expect(list.json.schemas).to.deep.equal([LIST_SCHEMA]);
    expect(list.json).to.include({ startIndex: 1, itemsPerPage: 1 });
    expect(list.json.totalResults).to.be.greaterThan(1);
    expect(list.json.Resources).to.have.length(1);
  });
});
