import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { describeInBrowser, foreignRequests, inPage, signIn, startConsoleRig, type ConsoleRig } from './browser.js';

describeInBrowser('console: sign in (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
  });
  afterEach(async () => page?.context().close());

  it('signs in with a gateway API key, keeps it for the tab only and never puts it in a URL', async () => {
    await signIn(page, rig.gateway.url);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    expect(await page.getByRole('heading', { name: 'gw console' }).isVisible()).to.equal(true);
    expect(await inPage(page, "sessionStorage.getItem('gw.console.key')")).to.equal('gw-test-key');
    expect(await inPage(page, 'localStorage.length')).to.equal(0);
    expect(rig.requested.some((url) => url.includes('gw-test-key'))).to.equal(false);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('refuses an unknown key with the reason and stays on the sign-in form', async () => {
    await signIn(page, rig.gateway.url, 'not-a-key');
    await page.getByRole('alert').waitFor();
    const alert = await page.getByRole('alert').textContent();
    expect(alert).to.match(/did not accept this key/);
    expect(await page.getByLabel('Gateway API key').isVisible()).to.equal(true);
    expect(await inPage(page, "sessionStorage.getItem('gw.console.key')")).to.equal(null);
  });

  it('signs out: the key is forgotten', async () => {
    await signIn(page, rig.gateway.url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Gateway API key').waitFor();
    expect(await inPage(page, "sessionStorage.getItem('gw.console.key')")).to.equal(null);
  });
});
