/**
 * identity.sso settings: the organisation's provider (client secret sealed at rest, never
 * answered) and its email domains (allow_subdomains on root domains only; one organisation per
 * domain), with their refusals.
 */
import { expect } from 'chai';
import { withRecords } from '../../../helpers/records.js';
import { client, createKey, defaultWorkspaceId, type ControlPlane } from '../../admin/api-keys/helpers.js';
import { CLIENT_SECRET, startBench, type Bench } from './harness.js';

describe('identity.sso settings routes', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench({ configure: false });
  });
  after(async () => {
    await bench?.stop();
  });

  it('PUT stores the provider with the secret sealed; GET never answers it; DELETE removes it', async () => {
    expect((await bench.owner.get('/v1/organisation/sso')).status).to.equal(404);
    const put = await bench.owner.put('/v1/organisation/sso', { issuer: bench.provider.issuer, client_id: 'gw-test-client', client_secret: CLIENT_SECRET });
    expect(put.status).to.equal(200);
    expect(put.json).to.include({ object: 'sso_settings', issuer: bench.provider.issuer, client_id: 'gw-test-client', has_client_secret: true });
    expect(put.text).not.to.contain(CLIENT_SECRET);
    const stored = await withRecords(bench.gw.dataDir, (r) => r.get<{ client_secret: string }>('SELECT client_secret FROM sso_providers'));
    expect(stored!.client_secret).to.match(/^v1:/).and.not.contain(CLIENT_SECRET);

    // Omitted: the secret is kept; null: removed (a public client).
    const kept = await bench.owner.put('/v1/organisation/sso', { issuer: bench.provider.issuer, client_id: 'other-client' });
    expect(kept.json).to.include({ client_id: 'other-client', has_client_secret: true });
    const cleared = await bench.owner.put('/v1/organisation/sso', { issuer: bench.provider.issuer, client_id: 'other-client', client_secret: null });
    expect(cleared.json.has_client_secret).to.equal(false);
    const got = await bench.owner.get('/v1/organisation/sso');
    expect(got.json).to.include({ client_id: 'other-client', has_client_secret: false });
    expect(Object.keys(got.json)).not.to.include('client_secret');
    expect((await bench.owner.del('/v1/organisation/sso')).status).to.equal(200);
    expect((await bench.owner.get('/v1/organisation/sso')).status).to.equal(404);
    expect((await bench.owner.del('/v1/organisation/sso')).status).to.equal(404);
  });

  it('refuses an issuer that is not https (plain http only on loopback) and bodies that miss a field', async () => {
    const plain = await bench.owner.put('/v1/organisation/sso', { issuer: 'http://login.example.com', client_id: 'c' });
    expect(plain.status).to.equal(400);
    expect(plain.json.error.message).to.contain('body.issuer').and.contain('https');
    const notUrl = await bench.owner.put('/v1/organisation/sso', { issuer: 'login', client_id: 'c' });
    expect(notUrl.json.error.param).to.equal('issuer');
    const query = await bench.owner.put('/v1/organisation/sso', { issuer: 'https://login.example.com/?x=1', client_id: 'c' });
    expect(query.status).to.equal(400);
    const noClient = await bench.owner.put('/v1/organisation/sso', { issuer: 'https://login.example.com' });
    expect(noClient.status).to.equal(400);
    expect(noClient.json.error.message).to.contain('client_id');
    const extra = await bench.owner.put('/v1/organisation/sso', { issuer: 'https://login.example.com', client_id: 'c', secret: 'x' });
    expect(extra.status).to.equal(400);
    expect((await bench.owner.put('/v1/organisation/sso', { issuer: 'https://login.example.com', client_id: 'c' })).status).to.equal(200);
    await bench.owner.del('/v1/organisation/sso');
  });

  it('domains: added, listed and removed; allow_subdomains only on a root domain', async () => {
    const root = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'Example.COM', allow_subdomains: true });
    expect(root.status).to.equal(200);
    expect(root.json).to.include({ object: 'sso_domain', domain: 'example.com', allow_subdomains: true });
    const uk = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'example.co.uk', allow_subdomains: true });
    expect(uk.status).to.equal(200);
    const sub = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'eng.other.com', allow_subdomains: true });
    expect(sub.status).to.equal(400);
    expect(sub.json.error).to.include({ param: 'allow_subdomains' });
    expect(sub.json.error.message).to.contain('root domain');
    const subUk = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'eng.example.co.uk', allow_subdomains: true });
    expect(subUk.status).to.equal(400);
    const plainSub = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'eng.other.com' });
    expect(plainSub.status).to.equal(200);
    expect(plainSub.json.allow_subdomains).to.equal(false);
    for (const bad of ['localhost', 'not a domain', '-x.com', 'a..b', '1.2.3.4']) {
      const reply = await bench.owner.post('/v1/organisation/sso/domains', { domain: bad });
      expect(reply.status, bad).to.equal(400);
      expect(reply.json.error.param, bad).to.equal('domain');
    }
    const duplicate = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'example.com' });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.json.error.code).to.equal('duplicate');
    const list = await bench.owner.get('/v1/organisation/sso/domains');
    expect(list.json.data.map((d: { domain: string }) => d.domain)).to.deep.equal(['eng.other.com', 'example.co.uk', 'example.com']);
    expect((await bench.owner.del('/v1/organisation/sso/domains/example.co.uk')).status).to.equal(200);
    expect((await bench.owner.del('/v1/organisation/sso/domains/example.co.uk')).status).to.equal(404);
    await bench.owner.del('/v1/organisation/sso/domains/example.com');
    await bench.owner.del('/v1/organisation/sso/domains/eng.other.com');
  });

  it('no domain reaches into another organisation\'s: neither below its root with subdomains, nor above its domains', async () => {
    await withRecords(bench.gw.dataDir, async (r) => {
      await r.run('INSERT INTO sso_domains (domain, organisation_id, allow_subdomains, created_at) VALUES (?, ?, ?, ?)', ['rival.test', 'org-2', 1, Date.now()]);
      await r.run('INSERT INTO sso_domains (domain, organisation_id, allow_subdomains, created_at) VALUES (?, ?, ?, ?)', ['team.partner.test', 'org-2', 0, Date.now()]);
    });
    const below = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'eng.rival.test' });
    expect(below.status).to.equal(400);
    expect(below.json.error.code).to.equal('duplicate');
    const above = await bench.owner.post('/v1/organisation/sso/domains', { domain: 'partner.test', allow_subdomains: true });
    expect(above.status).to.equal(400);
    // Without allow_subdomains the root reaches only itself.
    expect((await bench.owner.post('/v1/organisation/sso/domains', { domain: 'partner.test' })).status).to.equal(200);
    expect((await bench.owner.get('/v1/organisation/sso/domains')).json.data.map((d: { domain: string }) => d.domain)).to.deep.equal(['partner.test']);
    await bench.owner.del('/v1/organisation/sso/domains/partner.test');
    await withRecords(bench.gw.dataDir, (r) => r.run("DELETE FROM sso_domains WHERE organisation_id = 'org-2'"));
  });

  it('a subdomain is reached only through a root that allows subdomains', async () => {
    await bench.owner.put('/v1/organisation/sso', { issuer: bench.provider.issuer, client_id: 'gw-test-client', client_secret: CLIENT_SECRET });
    await bench.owner.post('/v1/organisation/sso/domains', { domain: 'acme.test' });
    const browser = bench.browser();
    expect((await browser.request(`${bench.gw.url}/v1/sso/login?email=carol%40eng.acme.test`)).status).to.equal(404);
    expect((await browser.request(`${bench.gw.url}/v1/sso/login?email=alice%40acme.test`)).status).to.equal(302);
    await bench.owner.del('/v1/organisation/sso/domains/acme.test');
    await bench.owner.post('/v1/organisation/sso/domains', { domain: 'acme.test', allow_subdomains: true });
    expect((await browser.request(`${bench.gw.url}/v1/sso/login?email=carol%40eng.acme.test`)).status).to.equal(302);
    await bench.owner.del('/v1/organisation/sso/domains/acme.test');
    await bench.owner.del('/v1/organisation/sso');
  });

  it('a provider that cannot be reached is a 502 at login', async () => {
    await bench.owner.put('/v1/organisation/sso', { issuer: 'http://127.0.0.1:1', client_id: 'c' });
    await bench.owner.post('/v1/organisation/sso/domains', { domain: 'down.test' });
    const reply = await bench.browser().request(`${bench.gw.url}/v1/sso/login?email=x%40down.test`);
    expect(reply.status).to.equal(502);
    expect(JSON.parse(reply.body).error.message).to.contain('identity provider');
    await bench.owner.del('/v1/organisation/sso/domains/down.test');
    await bench.owner.del('/v1/organisation/sso');
  });

  it('a configured domain without a provider answers 404 naming it', async () => {
    await bench.owner.post('/v1/organisation/sso/domains', { domain: 'lonely.test' });
    const reply = await bench.browser().request(`${bench.gw.url}/v1/sso/login?email=x%40lonely.test`);
    expect(reply.status).to.equal(404);
    expect(JSON.parse(reply.body).error.code).to.equal('sso_not_configured');
    await bench.owner.del('/v1/organisation/sso/domains/lonely.test');
  });

  it('workspace keys and keys without the scope are refused; an organisation key with the scope is not', async () => {
    const cp = { gw: bench.gw, owner: bench.owner } as unknown as ControlPlane;
    const workspaceId = await defaultWorkspaceId(cp);
    const wsKey = await createKey(cp, { name: 'ws', type: 'workspace-service', workspace_id: workspaceId, scopes: ['organisation_settings.read'] });
    const ws = client(bench.gw.url, wsKey.key);
    expect((await ws.get('/v1/organisation/sso/domains')).status).to.equal(403);
    const reader = client(bench.gw.url, (await createKey(cp, { name: 'reader', type: 'organisation-service', scopes: ['organisation_settings.read'] })).key);
    expect((await reader.get('/v1/organisation/sso/domains')).status).to.equal(200);
    const write = await reader.post('/v1/organisation/sso/domains', { domain: 'reader.test' });
    expect(write.status).to.equal(403);
    expect(write.json.error.message).to.contain('organisation_settings.update');
    expect((await client(bench.gw.url, 'nope').get('/v1/organisation/sso')).status).to.equal(401);
  });
});
