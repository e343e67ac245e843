/**
 * identity.sso end to end against a real OIDC provider (oidc-provider on loopback), driven like a
 * browser: login redirect, the provider's login and consent pages, the callback, the session
 * cookie on admin routes with the person's role, and every refusal along the way.
 */
import { expect } from 'chai';
import { CHAT_BODY } from '../../../helpers/gateway.js';
import { CLIENT_SECRET, startBench, type Bench } from './harness.js';

describe('identity.sso: sign-in with OpenID Connect', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench();
  });
  after(async () => {
    await bench?.stop();
  });

  const loginUrl = (email: string, extra = '') => `${bench.gw.url}/v1/sso/login?email=${encodeURIComponent(email)}${extra}`;

  it('redirects to the provider with PKCE, state and nonce, and binds the login to the browser', async () => {
    const browser = bench.browser();
    const seen = await browser.request(loginUrl('alice@acme.test'));
    expect(seen.status).to.equal(302);
    const location = new URL(seen.headers['location']!);
    expect(location.origin).to.equal(bench.provider.issuer);
    const q = location.searchParams;
    expect(q.get('response_type')).to.equal('code');
    expect(q.get('client_id')).to.equal('gw-test-client');
    expect(q.get('code_challenge_method')).to.equal('S256');
    expect(q.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).to.be.a('string').with.length.above(20);
    expect(q.get('nonce')).to.be.a('string').with.length.above(20);
    expect(q.get('scope')).to.equal('openid email profile');
    expect(q.get('redirect_uri')).to.equal(`${bench.gw.url}/v1/sso/callback`);
    expect(q.get('login_hint')).to.equal('alice@acme.test');
    expect(seen.setCookies[0]).to.match(/^gw_sso_login=[^;]+; Path=\/v1\/sso\/callback; Max-Age=600; HttpOnly; SameSite=Lax$/);
  });

  it('signs a first-time person in as an organisation member, with an HttpOnly SameSite session cookie', async () => {
    const { callback, browser } = await bench.signIn('alice');
    expect(callback.status, callback.body).to.equal(200);
    const answer = JSON.parse(callback.body);
    expect(answer.object).to.equal('sso_session');
    expect(answer.user).to.include({ email: 'alice@acme.test', role: 'member', created: true });
    expect(callback.setCookies).to.have.length(1);
    expect(callback.setCookies[0]).to.match(/^gw_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/);
    expect(browser.cookie('127.0.0.1', 'gw_session')).to.be.a('string');
    const users = await bench.owner.get('/v1/users?email=alice@acme.test');
    expect(users.json.data).to.have.length(1);
    expect(users.json.data[0]).to.include({ id: answer.user.id, role: 'member', name: 'Alice' });

    const again = await bench.signIn('alice');
    expect(JSON.parse(again.callback.body).user).to.include({ id: answer.user.id, created: false });
  });

  it('a member acts in their workspace with a workspace member\'s rights; the x-gw-workspace header picks one of several', async () => {
    const { browser } = await bench.signIn('alice');
    const userId = (await bench.owner.get('/v1/users?email=alice@acme.test')).json.data[0].id;
    const none = await bench.withSession(browser, 'GET', '/v1/workspaces/default/members');
    expect(none.status).to.equal(403);
    expect(none.json.error.message).to.contain('member of no workspace').and.contain('x-gw-workspace');

    expect((await bench.owner.post('/v1/workspaces/default/members', { user_id: userId, role: 'member' })).status).to.equal(200);
    const members = await bench.withSession(browser, 'GET', '/v1/workspaces/default/members');
    expect(members.status).to.equal(200);
    expect(members.json.data.map((m: { user_id: string }) => m.user_id)).to.include(userId);
    // Organisation-level routes and manager actions stay closed to a member.
    expect((await bench.withSession(browser, 'GET', '/v1/users')).status).to.equal(403);
    expect((await bench.withSession(browser, 'DELETE', `/v1/workspaces/default/members/${userId}`)).status).to.equal(403);

    const second = await bench.owner.post('/v1/workspaces', { name: 'Research', slug: 'research' });
    expect(second.status).to.equal(200);
    expect((await bench.owner.post('/v1/workspaces/research/members', { user_id: userId, role: 'manager' })).status).to.equal(200);
    const ambiguous = await bench.withSession(browser, 'GET', '/v1/workspaces/default/members');
    expect(ambiguous.status).to.equal(403);
    expect(ambiguous.json.error.message).to.contain('several workspaces').and.contain('x-gw-workspace');
    const picked = await bench.withSession(browser, 'GET', '/v1/workspaces/research/members', undefined, { 'x-gw-workspace': 'research' });
    expect(picked.status).to.equal(200);
    // As a manager there, the same person may not act on the other workspace through it.
    expect((await bench.withSession(browser, 'GET', '/v1/workspaces/default/members', undefined, { 'x-gw-workspace': 'research' })).status).to.equal(403);
    const stranger = await bench.withSession(browser, 'GET', '/v1/workspaces/research/members', undefined, { 'x-gw-workspace': 'nowhere' });
    expect(stranger.status).to.equal(403);
    expect(stranger.json.error.message).to.contain('header x-gw-workspace');
    await bench.owner.del(`/v1/workspaces/research/members/${userId}`);
  });

  it('an organisation admin signs in with their role: organisation routes are open to them', async () => {
    const made = await bench.owner.post('/v1/users', { email: 'bob@acme.test', name: 'Bob', role: 'admin' });
    expect(made.status).to.equal(200);
    const { callback, browser } = await bench.signIn('bob');
    expect(JSON.parse(callback.body).user).to.include({ id: made.json.id, role: 'admin', created: false });
    const users = await bench.withSession(browser, 'GET', '/v1/users');
    expect(users.status).to.equal(200);
    const settings = await bench.withSession(browser, 'PUT', '/v1/organisation/settings', { membersViewPrompts: true });
    expect(settings.status).to.equal(200);
    // An admin is not an owner: making an owner stays refused.
    const owner = await bench.withSession(browser, 'POST', '/v1/users', { email: 'new-owner@acme.test', role: 'owner' });
    expect(owner.status).to.equal(403);
  });

  it('takes a key over a cookie, ignores the cookie on inference routes, and refuses a state change from another origin', async () => {
    const { browser } = await bench.signIn('alice');
    const url = new URL('/v1/chat/completions', bench.gw.url);
    const inference = await fetch(url, { method: 'POST', headers: { cookie: browser.cookiesFor(url), 'content-type': 'application/json' }, body: JSON.stringify(CHAT_BODY) });
    expect(inference.status).to.equal(401);
    expect(((await inference.json()) as any).error.message).to.contain('x-gw-api-key');
    const withKey = await bench.withSession(browser, 'GET', '/v1/users', undefined, { 'x-gw-api-key': 'gw-test-key' });
    expect(withKey.status).to.equal(200);
    const bob = (await bench.signIn('bob')).browser;
    const cross = await bench.withSession(bob, 'PUT', '/v1/organisation/settings', { membersViewPrompts: true }, { origin: 'https://evil.example' });
    expect(cross.status).to.equal(403);
    expect(cross.json.error.message).to.contain('another origin');
    const same = await bench.withSession(bob, 'PUT', '/v1/organisation/settings', { membersViewPrompts: true }, { origin: bench.gw.url });
    expect(same.status).to.equal(200);
  });

  it('answers 404 for an email domain no organisation signs in with, 400 for a bad email or return_to', async () => {
    const browser = bench.browser();
    const unknown = await browser.request(loginUrl('someone@unknown.test'));
    expect(unknown.status).to.equal(404);
    expect(JSON.parse(unknown.body).error).to.include({ code: 'sso_domain_unknown' });
    const bad = await browser.request(loginUrl('not-an-email'));
    expect(bad.status).to.equal(400);
    expect(JSON.parse(bad.body).error.message).to.contain('query.email');
    const open = await browser.request(loginUrl('alice@acme.test', '&return_to=' + encodeURIComponent('//evil.example/x')));
    expect(open.status).to.equal(400);
    expect(JSON.parse(open.body).error.message).to.contain('query.return_to');
  });

  it('sends the browser on to return_to (a path of the gateway) after signing in', async () => {
    const browser = bench.browser();
    const { last } = await browser.signIn(loginUrl('alice@acme.test', '&return_to=' + encodeURIComponent('/console/home?tab=1')), 'alice', '/console/home');
    expect(last.status).to.equal(303);
    expect(last.headers['location']).to.equal('/console/home?tab=1');
    expect(last.setCookies[0]).to.match(/^gw_session=/);
  });

  it('refuses a tampered, replayed or foreign state with 400, and makes no session', async () => {
    const browser = bench.browser();
    const { stoppedAt } = await browser.signIn(loginUrl('alice@acme.test'), 'alice', '/v1/sso/callback');
    const callback = new URL(stoppedAt!);
    const state = callback.searchParams.get('state')!;

    const tampered = new URL(callback);
    tampered.searchParams.set('state', state.slice(0, -2) + (state.endsWith('AA') ? 'BB' : 'AA'));
    const refused = await browser.request(tampered.href);
    expect(refused.status).to.equal(400);
    expect(JSON.parse(refused.body).error).to.include({ code: 'sso_state_invalid', param: 'state' });
    expect(refused.setCookies).to.deep.equal([]);

    // Another browser (no login cookie) cannot finish this login: the state is spent with it.
    const foreign = await bench.browser().request(callback.href);
    expect(foreign.status).to.equal(400);
    expect((await browser.request(callback.href)).status).to.equal(400);

    const missing = await browser.request(`${bench.gw.url}/v1/sso/callback?code=x`);
    expect(missing.status).to.equal(400);
    expect(JSON.parse(missing.body).error.message).to.contain('query.state');
  });

  it('a finished login cannot be replayed', async () => {
    const browser = bench.browser();
    const { stoppedAt } = await browser.signIn(loginUrl('alice@acme.test'), 'alice', '/v1/sso/callback');
    expect((await browser.request(stoppedAt!)).status).to.equal(200);
    const again = await browser.request(stoppedAt!);
    expect(again.status).to.equal(400);
  });

  it('refuses a person whose email is outside the organisation\'s domains (403) or not verified (401)', async () => {
    const mallory = await bench.signIn('mallory', 'alice@acme.test');
    expect(mallory.callback.status).to.equal(403);
    expect(JSON.parse(mallory.callback.body).error.message).to.contain('mallory@elsewhere.test');
    expect(mallory.browser.cookie('127.0.0.1', 'gw_session')).to.equal(undefined);
    const unverified = await bench.signIn('unverified');
    expect(unverified.callback.status).to.equal(401);
    expect(JSON.parse(unverified.callback.body).error).to.include({ code: 'sso_email_unverified' });
    expect((await bench.owner.get('/v1/users?email=mallory@elsewhere.test')).json.data).to.deep.equal([]);
  });

  it('a person who cancels at the provider gets a 403 naming its error, and no session', async () => {
    const browser = bench.browser();
    let seen = await browser.request(loginUrl('alice@acme.test'));
    while (seen.headers['location'] && !seen.headers['location'].includes('/interaction/')) seen = await browser.request(new URL(seen.headers['location'], bench.provider.issuer).href);
    const interaction = new URL(seen.headers['location']!, bench.provider.issuer);
    const { last } = await browser.signIn(`${interaction.href.replace(/\/$/, '')}/abort`, 'alice');
    expect(last.status).to.equal(403);
    expect(JSON.parse(last.body).error).to.include({ code: 'sso_refused' });
    expect(JSON.parse(last.body).error.message).to.contain('access_denied');
    expect(browser.cookie('127.0.0.1', 'gw_session')).to.equal(undefined);
  });

  it('signs in an address of a subdomain when its root domain allows subdomains', async () => {
    const { callback } = await bench.signIn('carol');
    expect(callback.status, callback.body).to.equal(200);
    expect(JSON.parse(callback.body).user).to.include({ email: 'carol@eng.acme.test', created: true });
  });

  it('a person removed from the organisation is refused with 401, whatever their session', async () => {
    const { callback, browser } = await bench.signIn('carol');
    const id = JSON.parse(callback.body).user.id;
    expect((await bench.owner.post('/v1/workspaces/default/members', { user_id: id, role: 'member' })).status).to.equal(200);
    expect((await bench.withSession(browser, 'GET', '/v1/workspaces/default/members')).status).to.equal(200);
    expect((await bench.owner.del(`/v1/users/${id}`)).status).to.equal(200);
    const gone = await bench.withSession(browser, 'GET', '/v1/workspaces/default/members');
    expect(gone.status).to.equal(401);
    expect(gone.json.error.code).to.equal('person_unknown');
  });

  it('logout ends the session: the cookie is then refused with 401 and cleared', async () => {
    const { browser } = await bench.signIn('bob');
    expect((await bench.withSession(browser, 'GET', '/v1/users')).status).to.equal(200);
    const cookieHeader = browser.cookiesFor(new URL(bench.gw.url));
    const out = await browser.request(`${bench.gw.url}/v1/sso/logout`, { method: 'POST' });
    expect(out.status).to.equal(200);
    expect(JSON.parse(out.body)).to.deep.equal({ object: 'sso_logout', ended: true });
    expect(out.setCookies[0]).to.match(/^gw_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    const after = await fetch(`${bench.gw.url}/v1/users`, { headers: { cookie: cookieHeader } });
    expect(after.status).to.equal(401);
    expect(((await after.json()) as any).error).to.include({ code: 'session_unknown' });
    const twice = await fetch(`${bench.gw.url}/v1/sso/logout`, { method: 'POST', headers: { cookie: cookieHeader } });
    expect(await twice.json()).to.deep.equal({ object: 'sso_logout', ended: false });
  });

  it('session_settings.max_session_ttl: at least 900 seconds; older sessions are refused with 401', async () => {
    const low = await bench.owner.put('/v1/organisation/settings', { session_settings: { max_session_ttl: 899 } });
    expect(low.status).to.equal(400);
    expect(low.json.error.message).to.contain('session_settings.max_session_ttl').and.contain('900');
    const text = await bench.owner.put('/v1/organisation/settings', { session_settings: { max_session_ttl: '1h' } });
    expect(text.status).to.equal(400);
    const unknown = await bench.owner.put('/v1/organisation/settings', { session_settings: { idle_ttl: 900 } });
    expect(unknown.status).to.equal(400);

    // A session made before the setting is bound by it too.
    const { browser: early } = await bench.signIn('bob');
    const set = await bench.owner.put('/v1/organisation/settings', { session_settings: { max_session_ttl: 900 } });
    expect(set.status).to.equal(200);
    expect(set.json.session_settings).to.deep.equal({ max_session_ttl: 900 });
    expect((await bench.owner.get('/v1/organisation/settings')).json.session_settings).to.deep.equal({ max_session_ttl: 900 });
    const { callback, browser } = await bench.signIn('bob');
    expect(callback.setCookies[0]).to.contain('Max-Age=900;');
    expect(JSON.parse(callback.body).expires_at).to.equal(new Date(bench.clock.now() + 900_000).toISOString());

    bench.clock.advance(899_000);
    expect((await bench.withSession(browser, 'GET', '/v1/users')).status).to.equal(200);
    bench.clock.advance(2_000);
    for (const who of [browser, early]) {
      const expired = await bench.withSession(who, 'GET', '/v1/users');
      expect(expired.status).to.equal(401);
      expect(expired.json.error.code).to.equal('session_expired');
    }
    expect(JSON.parse((await bench.signIn('bob')).callback.body).user.role).to.equal('admin');
    expect((await bench.owner.put('/v1/organisation/settings', { session_settings: null })).status).to.equal(400);
    const lifted = await bench.owner.put('/v1/organisation/settings', { session_settings: { max_session_ttl: null } });
    expect(lifted.status).to.equal(200);
    const { browser: later } = await bench.signIn('bob');
    bench.clock.advance(3_600_000);
    expect((await bench.withSession(later, 'GET', '/v1/users')).status).to.equal(200);
  });

  it('behind a TLS proxy (x-forwarded-proto: https) the cookies are Secure and the callback is https', async () => {
    const browser = bench.browser({ tlsProxy: { publicOrigin: bench.publicOrigin, target: bench.gw.url } });
    const { last } = await browser.signIn(`${bench.publicOrigin}/v1/sso/login?email=alice%40acme.test`, 'alice');
    expect(last.status, last.body).to.equal(200);
    expect(last.setCookies[0]).to.match(/; HttpOnly; SameSite=Lax; Secure$/);
    const login = browser.seen.find((s) => s.url.includes('/v1/sso/login'))!;
    expect(login.setCookies[0]).to.match(/; Secure$/);
    expect(new URL(login.headers['location']!).searchParams.get('redirect_uri')).to.equal(`${bench.publicOrigin}/v1/sso/callback`);
    // Plain http without the proxy's header: no Secure flag (the earlier tests' cookies).
    const plain = await bench.signIn('alice');
    expect(plain.callback.setCookies[0]).not.to.contain('Secure');
  });

  it('never answers or logs the client secret', async () => {
    const { browser } = await bench.signIn('bob');
    const settings = await bench.owner.get('/v1/organisation/sso');
    expect(settings.status).to.equal(200);
    expect(settings.json).to.include({ client_id: 'gw-test-client', has_client_secret: true, issuer: bench.provider.issuer });
    expect(settings.text).not.to.contain(CLIENT_SECRET);
    const asPerson = await bench.withSession(browser, 'GET', '/v1/organisation/sso');
    expect(JSON.stringify(asPerson.json)).not.to.contain(CLIENT_SECRET);
    for (const seen of browser.seen) {
      expect(seen.body + JSON.stringify(seen.headers)).not.to.contain(CLIENT_SECRET);
    }
    expect(bench.lines.length).to.be.above(0);
    expect(bench.lines.join('\n')).not.to.contain(CLIENT_SECRET);
  });
});
