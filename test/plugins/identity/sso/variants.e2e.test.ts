/**
 * identity.sso against other provider set-ups: OIDC_CUSTOM_SCOPES, email in the ID token rather
 * than userinfo, a public client (PKCE without a secret), and a fleet where one instance begins a
 * login and another finishes it.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBench, type Bench } from './harness.js';

describe('identity.sso variants', () => {
  describe('OIDC_CUSTOM_SCOPES, claims in the ID token, a public client', () => {
    let bench: Bench;
    before(async () => {
      bench = await startBench({
        env: { OIDC_CUSTOM_SCOPES: 'groups, offline_access,openid' },
        provider: { extraScopes: ['groups'], claimsInIdToken: true, clientSecret: undefined },
        configure: false,
      });
      const put = await bench.owner.put('/v1/organisation/sso', { issuer: bench.provider.issuer, client_id: 'gw-test-client' });
      expect(put.json.has_client_secret).to.equal(false);
      expect((await bench.owner.post('/v1/organisation/sso/domains', { domain: 'acme.test' })).status).to.equal(200);
    });
    after(async () => {
      await bench?.stop();
    });

    it('asks for the custom scopes after the base ones, each once', async () => {
      const seen = await bench.browser().request(`${bench.gw.url}/v1/sso/login?email=alice%40acme.test`);
      expect(new URL(seen.headers['location']!).searchParams.get('scope')).to.equal('openid email profile groups offline_access');
    });

    it('signs in with the email taken from the ID token, without calling userinfo', async () => {
      const { callback } = await bench.signIn('alice');
      expect(callback.status, callback.body).to.equal(200);
      expect(JSON.parse(callback.body).user).to.include({ email: 'alice@acme.test', role: 'member' });
      expect(bench.provider.requests.some((r) => r.includes('/me'))).to.equal(false);
      expect(bench.provider.requests.some((r) => r.startsWith('POST /token'))).to.equal(true);
    });
  });

  describe('a fleet: two instances on one store', () => {
    let a: Bench;
    let b: Bench;
    let dataDir: string;
    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'gw-sso-fleet-'));
      a = await startBench({ dataDir });
      b = await startBench({ dataDir, configure: false });
    });
    after(async () => {
      await a?.stop();
      await b?.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('one instance begins the login, another finishes it; the session works on both and logout on one ends it on both', async () => {
      const browser = a.browser();
      const { stoppedAt } = await browser.signIn(`${a.gw.url}/v1/sso/login?email=bob%40acme.test`, 'bob', '/v1/sso/callback');
      // The load balancer sends the callback to the other instance (same host name: the browser's cookies go along).
      const onB = new URL(stoppedAt!);
      onB.port = new URL(b.gw.url).port;
      const callback = await browser.request(onB.href);
      expect(callback.status, callback.body).to.equal(200);
      const userId = JSON.parse(callback.body).user.id;
      expect((await a.owner.post('/v1/workspaces/default/members', { user_id: userId, role: 'admin' })).status).to.equal(200);
      for (const bench of [a, b]) {
        expect((await bench.withSession(browser, 'GET', '/v1/workspaces/default/members')).status).to.equal(200);
      }
      expect((await browser.request(`${a.gw.url}/v1/sso/logout`, { method: 'POST' })).status).to.equal(200);
      const ended = callback.setCookies[0]!.split(';')[0]!;
      for (const bench of [a, b]) {
        const res = await fetch(`${bench.gw.url}/v1/workspaces/default/members`, { headers: { cookie: ended } });
        expect(res.status).to.equal(401);
      }
    });
  });
});
