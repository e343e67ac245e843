/**
 * identity.sso with identity.scim: a person the identity provider deactivates (SCIM PATCH
 * active: false) cannot sign in, and a session they hold is refused on its next request, both
 * with 401 person_deactivated; reactivated (active: true), they sign in and their session works again.
 */
import { expect } from 'chai';
import ScimPlugin from '../../../../plugins/identity/scim/index.js';
import { TEST_API_KEY } from '../../../helpers/gateway.js';
import { createKey, oktaUser, provision, SCIM, scimClient, type ScimClient } from '../scim/helpers.js';
import { ACCOUNTS, startBench, type Bench } from './harness.js';

describe('identity.sso: people deactivated by SCIM', () => {
  let bench: Bench;
  let idp: ScimClient;
  before(async () => {
    bench = await startBench({ plugins: [ScimPlugin] });
    const admin = scimClient(bench.gw.url, { 'x-gw-api-key': TEST_API_KEY });
    const scimKey = await createKey(admin, { name: 'okta', type: 'organisation-service', scopes: ['scim.*'] });
    idp = scimClient(bench.gw.url, { authorization: `Bearer ${scimKey}` });
  });
  after(async () => {
    await bench?.stop();
  });

  const setActive = async (id: string, active: boolean) => {
    const reply = await idp.patch(`${SCIM}/Users/${id}`, [{ op: 'replace', value: { active } }]);
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.json.active).to.equal(active);
  };
  const join = async (id: string) => {
    const added = await bench.owner.post('/v1/workspaces/default/members', { user_id: id, role: 'member' });
    expect(added.status, added.text).to.equal(200);
  };
  const members = '/v1/workspaces/default/members';

  it('refuses the sign-in and the open session of a deactivated person (401 person_deactivated); reactivation lets them in again', async () => {
    const id = await provision(idp, oktaUser(ACCOUNTS['bob']!.email));
    await join(id);
    const first = await bench.signIn('bob');
    expect(first.callback.status, first.callback.body).to.equal(200);
    expect(JSON.parse(first.callback.body).user).to.include({ id, created: false });
    expect((await bench.withSession(first.browser, 'GET', members)).status).to.equal(200);

    await setActive(id, false);
    const session = await bench.withSession(first.browser, 'GET', members);
    expect(session.status).to.equal(401);
    expect(session.json.error.code).to.equal('person_deactivated');
    expect(session.json.error.message).to.contain('bob@acme.test');
    const refused = await bench.signIn('bob');
    expect(refused.callback.status).to.equal(401);
    expect(JSON.parse(refused.callback.body).error).to.include({ code: 'person_deactivated' });
    expect(refused.browser.cookie('127.0.0.1', 'gw_session')).to.equal(undefined);
    // The person stays (inactive), so SSO found them and made no second one.
    expect((await bench.owner.get('/v1/users?email=bob@acme.test')).json.data).to.have.length(1);

    await setActive(id, true);
    await join(id); // deactivation ended the membership; SCIM groups would restore mapped ones
    const again = await bench.signIn('bob');
    expect(again.callback.status, again.callback.body).to.equal(200);
    expect(JSON.parse(again.callback.body).user).to.include({ id, created: false });
    expect((await bench.withSession(again.browser, 'GET', members)).status).to.equal(200);
    // A session not expired meanwhile works again too: the person's state decides, not the session.
    expect((await bench.withSession(first.browser, 'GET', members)).status).to.equal(200);
  });

  it('a person provisioned inactive (POST active: false) cannot sign in', async () => {
    await provision(idp, oktaUser(ACCOUNTS['alice']!.email.toLowerCase(), { active: false }));
    const refused = await bench.signIn('alice');
    expect(refused.callback.status).to.equal(401);
    expect(JSON.parse(refused.callback.body).error).to.include({ code: 'person_deactivated' });
  });

  it('an organisation admin deactivated by SCIM is refused too (no workspace membership is involved)', async () => {
    const made = await bench.owner.post('/v1/users', { email: ACCOUNTS['manager']!.email, role: 'admin' });
    expect(made.status, made.text).to.equal(200);
    const id = await provision(idp, oktaUser(ACCOUNTS['manager']!.email)); // links the admin
    expect(id).to.equal(made.json.id);
    const { callback, browser } = await bench.signIn('manager');
    expect(callback.status, callback.body).to.equal(200);
    expect((await bench.withSession(browser, 'GET', '/v1/users')).status).to.equal(200);
    await setActive(id, false);
    const refused = await bench.withSession(browser, 'GET', '/v1/users');
    expect(refused.status).to.equal(401);
    expect(refused.json.error.code).to.equal('person_deactivated');
  });
});
