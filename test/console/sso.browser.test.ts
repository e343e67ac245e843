/**
 * Signing in to the console by SSO against a real OpenID Connect provider (oidc-provider on
 * loopback): the browser goes to the provider, signs in there, comes back to the console with the
 * gateway's session cookie, and the console finds the session without a key.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { startOidcProvider, type TestOidcProvider } from '../fixtures/oidc-provider.js';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { describeInBrowser, foreignRequests, inPage, startConsoleRig, type ConsoleRig } from './browser.js';

const CLIENT_ID = 'gw-console-client';
const CLIENT_SECRET = 'oidc-console-secret-5b2e8a61';

describeInBrowser('console: sign in by SSO (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let provider: TestOidcProvider;
  let page: Page;

  const asOwner = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${rig.gateway.url}${path}`, {
      method, headers: { 'x-gw-api-key': TEST_API_KEY, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json() as any;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  before(async () => {
    rig = await startConsoleRig({ plugins: [{ use: 'admin.workspaces', options: { refreshIntervalMs: 0 } }] });
    provider = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [`${rig.gateway.url}/v1/sso/callback`],
      accounts: { olivia: { email: 'olivia@acme.test', name: 'Olivia' }, milo: { email: 'milo@acme.test', name: 'Milo' } },
    });
    await asOwner('PUT', '/v1/organisation/sso', { issuer: provider.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    await asOwner('POST', '/v1/organisation/sso/domains', { domain: 'acme.test' });
    await asOwner('POST', '/v1/users', { email: 'olivia@acme.test', role: 'owner' });
    const milo = await asOwner('POST', '/v1/users', { email: 'milo@acme.test', role: 'member' });
    await asOwner('POST', '/v1/workspaces/default/members', { user_id: milo.id, role: 'member' });
  });
  after(async () => {
    await rig?.stop();
    await provider?.close();
  });
  beforeEach(async () => {
    page = await rig.newPage();
  });
  afterEach(async () => page?.context().close());

  /** From the console's sign-in form through the provider's login and consent pages, back to the console. */
  const signInBySso = async (email: string, login: string) => {
    await page.goto(`${rig.gateway.url}/console/`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
  };
  const navLabels = () => page.getByRole('navigation', { name: 'Console' }).getByRole('link').allTextContents();

  it('signs an owner in by SSO, shows single sign-on on Home with every administration page, and signs out', async () => {
    await signInBySso('olivia@acme.test', 'olivia');
    expect(new URL(page.url()).pathname).to.equal('/console/');
    const facts = await page.getByRole('definition').allTextContents();
    expect(facts[0]).to.equal('single sign-on');
    expect(facts[1]).to.contain('owner');
    expect(await navLabels()).to.include.members(['Home', 'Integrations', 'Guardrails', 'Limits', 'MCP servers']);
    expect(await inPage(page, "sessionStorage.getItem('gw.console.key')")).to.equal(null);
    expect(await inPage(page, 'localStorage.length')).to.equal(0);
    // The session works on the pages' routes: the integrations list loads without a key.
    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByText('None yet.').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Gateway API key').waitFor();
    const after = await inPage<number>(page, "fetch('/v1/console/me').then((r) => r.status)");
    expect(after).to.equal(401);
    await page.reload();
    await page.getByLabel('Gateway API key').waitFor();
    expect(await page.getByRole('navigation', { name: 'Console' }).count()).to.equal(0);
    // The console asked only its gateway; the rest went to the provider, on loopback, or came from its pages (a web font) and was refused.
    const elsewhere = foreignRequests(rig.requested, rig.gateway.url).filter((url) => !url.startsWith(`${provider.issuer}/`));
    expect(elsewhere).to.deep.equal(rig.blocked.map((b) => b.url));
    for (const b of rig.blocked) expect(b.from.startsWith(`${provider.issuer}/`), b.url).to.equal(true);
  });

  it('a member sees only the pages their rights allow', async () => {
    await signInBySso('milo@acme.test', 'milo');
    const facts = await page.getByRole('definition').allTextContents();
    expect(facts[0]).to.equal('single sign-on');
    expect(facts[1]).to.contain('member');
    const labels = await navLabels();
    expect(labels).to.include('Home');
    for (const admin of ['Integrations', 'Guardrails', 'Limits', 'MCP servers']) expect(labels).not.to.include(admin);
    await page.goto(`${rig.gateway.url}/console/#/integrations`);
    expect(await page.getByRole('alert').textContent()).to.contain('your rights do not include it');
  });

  it('shows the gateway\'s refusal of an email whose domain signs in with no provider', async () => {
    await page.goto(`${rig.gateway.url}/console/`);
    await page.getByLabel('Email').fill('someone@elsewhere.test');
    await page.getByRole('button', { name: 'Sign in with SSO' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('no organisation signs in with SSO for the domain elsewhere.test');
    expect(new URL(page.url()).pathname).to.equal('/console/');
  });
});

describeInBrowser('console: sign-in without the identity.sso plugin (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;

  before(async () => {
    rig = await startConsoleRig({ composition: { preset: 'default', disable: ['identity.sso'] } });
  });
  after(async () => rig?.stop());

  it('offers the API key only', async () => {
    const page = await rig.newPage();
    await page.goto(`${rig.gateway.url}/console/`);
    await page.getByLabel('Gateway API key').waitFor();
    // The SSO probe has been answered (404 here) once the page is idle.
    await page.waitForLoadState('networkidle');
    expect(rig.requested.some((url) => new URL(url).pathname === '/v1/sso/login')).to.equal(true);
    expect(await page.getByRole('button', { name: 'Sign in with SSO' }).count()).to.equal(0);
    expect(await page.getByLabel('Email').count()).to.equal(0);
    await page.context().close();
  });
});
