/**
 * SCIM filters and pagination on Users and Groups: every operator, case rules (userName, emails and
 * displayName case-insensitive; id and externalId case-exact), startIndex/count, and invalidFilter.
 */
import { expect } from 'chai';
import { createGroup, oktaUser, provision, SCIM, scimErrorOf, startScimGateway, type ScimGateway } from './helpers.js';

describe('identity.scim: filters and pagination', () => {
  let s: ScimGateway;
  const ids: Record<string, string> = {};

  before(async () => {
    s = await startScimGateway();
    ids['alice'] = await provision(s.idp, oktaUser('alice@acme.test', { externalId: 'EXT-Alice', displayName: 'Alice Archer' }));
    ids['bob'] = await provision(s.idp, oktaUser('bob@acme.test', { externalId: 'ext-bob', displayName: 'Bob Baker', emails: [{ value: 'Bob.Work@Acme.Test', primary: true }] }));
    ids['carol'] = await provision(s.idp, oktaUser('carol@other.test', { displayName: 'Carol 100%_done' }));
    ids['dave'] = await provision(s.idp, oktaUser('dave@other.test', { active: false, displayName: undefined }));
  });
  after(async () => {
    await s.stop();
  });

  const userNames = async (filter: string): Promise<string[]> => {
    const reply = await s.idp.get(`${SCIM}/Users?filter=${encodeURIComponent(filter)}`);
    expect(reply.status, `${filter}: ${reply.text}`).to.equal(200);
    return reply.json.Resources.map((r: { userName: string }) => r.userName).sort();
  };

  it('eq on userName ignores case; on externalId it does not', async () => {
    expect(await userNames('userName eq "ALICE@acme.test"')).to.deep.equal(['alice@acme.test']);
    expect(await userNames('externalId eq "EXT-Alice"')).to.deep.equal(['alice@acme.test']);
    expect(await userNames('externalId eq "ext-alice"')).to.deep.equal([]);
  });

  it('eq and co on emails.value, and the emails[value ...] form', async () => {
    expect(await userNames('emails.value eq "bob.work@acme.test"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('emails[value eq "BOB.WORK@acme.test"]')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('emails co "@acme.test"')).to.deep.equal(['alice@acme.test', 'bob@acme.test']);
  });

  it('co, sw, ew on displayName (case-insensitive; % and _ are plain characters)', async () => {
    expect(await userNames('displayName co "ARCH"')).to.deep.equal(['alice@acme.test']);
    expect(await userNames('displayName co "100%_"')).to.deep.equal(['carol@other.test']);
    expect(await userNames('displayName co "1_0"')).to.deep.equal([]);
    expect(await userNames('displayName sw "bob"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('userName ew "@OTHER.test"')).to.deep.equal(['carol@other.test', 'dave@other.test']);
  });

  it('case-exact co, sw and ew on externalId', async () => {
    expect(await userNames('externalId sw "EXT"')).to.deep.equal(['alice@acme.test']);
    expect(await userNames('externalId ew "bob"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('externalId co "T-A"')).to.deep.equal(['alice@acme.test']);
    expect(await userNames('externalId co "t-a"')).to.deep.equal([]);
  });

  it('pr, ne, gt, ge, lt, le, not', async () => {
    expect(await userNames('externalId pr')).to.deep.equal(['alice@acme.test', 'bob@acme.test']);
    expect(await userNames('displayName pr and userName ew "other.test"')).to.deep.equal(['carol@other.test']);
    expect(await userNames('userName ne "alice@acme.test" and userName ew "acme.test"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('userName gt "bob@acme.test"')).to.deep.equal(['carol@other.test', 'dave@other.test']);
    expect(await userNames('userName ge "bob@acme.test" and userName lt "dave"')).to.deep.equal(['bob@acme.test', 'carol@other.test']);
    expect(await userNames('userName le "BOB@ACME.TEST"')).to.deep.equal(['alice@acme.test', 'bob@acme.test']);
    expect(await userNames('not (userName ew "acme.test")')).to.deep.equal(['carol@other.test', 'dave@other.test']);
  });

  it('and, or, parentheses, booleans, the core schema URN, meta and id', async () => {
    expect(await userNames('userName eq "alice@acme.test" or userName eq "carol@other.test"')).to.deep.equal(['alice@acme.test', 'carol@other.test']);
    expect(await userNames('(userName sw "a" or userName sw "b") and externalId eq "ext-bob"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames('active eq false')).to.deep.equal(['dave@other.test']);
    expect(await userNames('active ne false and userName ew "other.test"')).to.deep.equal(['carol@other.test']);
    expect(await userNames('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob@acme.test"')).to.deep.equal(['bob@acme.test']);
    expect(await userNames(`id eq "${ids['carol']}"`)).to.deep.equal(['carol@other.test']);
    expect(await userNames('meta.created gt "2000-01-01T00:00:00Z" and name.familyName eq "tester" and name.givenName eq "dave"')).to.deep.equal(['dave@other.test']);
  });

  it('paginates with startIndex and count; totalResults counts every match', async () => {
    const page = async (query: string) => (await s.idp.get(`${SCIM}/Users?${query}`)).json;
    const first = await page('filter=userName%20pr&startIndex=1&count=2');
    expect(first).to.include({ totalResults: 4, startIndex: 1, itemsPerPage: 2 });
    const second = await page('filter=userName%20pr&startIndex=3&count=2');
    expect(second).to.include({ totalResults: 4, startIndex: 3, itemsPerPage: 2 });
    const all = [...first.Resources, ...second.Resources].map((r: { id: string }) => r.id);
    expect(new Set(all).size).to.equal(4);
    const beyond = await page('startIndex=10');
    expect(beyond).to.include({ totalResults: 4, itemsPerPage: 0 });
    expect(await page('count=0')).to.include({ totalResults: 4, itemsPerPage: 0 });
    expect(await page('startIndex=0&count=-5')).to.include({ startIndex: 1, itemsPerPage: 0 });
    const bad = await s.idp.get(`${SCIM}/Users?count=many`);
    expect(scimErrorOf(bad)).to.deep.include({ status: '400', scimType: 'invalidValue' });
    const huge = await s.idp.get(`${SCIM}/Users?startIndex=1e30`);
    expect(scimErrorOf(huge).detail).to.contain('startIndex');
  });

  it('keeps only the asked attributes, or drops the excluded ones', async () => {
    const only = (await s.idp.get(`${SCIM}/Users?filter=${encodeURIComponent('userName eq "bob@acme.test"')}&attributes=userName`)).json.Resources[0];
    expect(Object.keys(only).sort()).to.deep.equal(['id', 'schemas', 'userName']);
    const without = (await s.idp.get(`${SCIM}/Users/${ids['bob']}?excludedAttributes=emails,name`)).json;
    expect(without.emails).to.equal(undefined);
    expect(without.name).to.equal(undefined);
    expect(without.userName).to.equal('bob@acme.test');
  });

  it('answers 400 invalidFilter for a syntax error, an unknown attribute, a wrong value type, an operator the attribute lacks', async () => {
    for (const filter of ['userName eq', 'userName zz "a"', 'nickName eq "x"', 'active eq "yes"', 'userName eq 3', 'active gt true', 'groups[value co "x"]', '('.repeat(1) + 'userName eq "a"']) {
      const reply = await s.idp.get(`${SCIM}/Users?filter=${encodeURIComponent(filter)}`);
      expect(reply.status, filter).to.equal(400);
      expect(scimErrorOf(reply), filter).to.deep.include({ status: '400', scimType: 'invalidFilter' });
    }
    const tooLong = await s.idp.get(`${SCIM}/Users?filter=${encodeURIComponent(Array.from({ length: 60 }, (_, i) => `userName eq "u${i}"`).join(' or '))}`);
    expect(scimErrorOf(tooLong).detail).to.contain('more than 50');
  });

  it('filters groups by displayName (any case), externalId and members[value eq]', async () => {
    const engineering = await createGroup(s.idp, 'Engineering', [ids['alice']!, ids['bob']!]);
    const sales = await createGroup(s.idp, 'Sales', [ids['bob']!]);
    const names = async (filter: string) => {
      const reply = await s.idp.get(`${SCIM}/Groups?filter=${encodeURIComponent(filter)}`);
      expect(reply.status, reply.text).to.equal(200);
      return reply.json.Resources.map((r: { displayName: string }) => r.displayName).sort();
    };
    expect(await names('displayName eq "engineering"')).to.deep.equal(['Engineering']);
    expect(await names('displayName sw "s"')).to.deep.equal(['Sales']);
    expect(await names(`members[value eq "${ids['bob']}"]`)).to.deep.equal(['Engineering', 'Sales']);
    expect(await names(`members eq "${ids['alice']}"`)).to.deep.equal(['Engineering']);
    expect(await names(`id eq "${sales}" or id eq "${engineering}"`)).to.deep.equal(['Engineering', 'Sales']);
    const bad = await s.idp.get(`${SCIM}/Groups?filter=${encodeURIComponent('members.display eq "x"')}`);
    expect(scimErrorOf(bad)).to.deep.include({ scimType: 'invalidFilter' });
  });
});
