import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { deleteRow } from './admin-pages.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, startConsoleRig } from './browser.js';

describeInBrowser('console: Limits page (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Limits');
  });
  afterEach(async () => page?.context().close());

  const rateLimits = () => page.getByRole('region', { name: 'Rate limits' });
  const usageLimits = () => page.getByRole('region', { name: 'Usage limits' });

  it('creates a rate limit, edits it, and deletes (archives) it', async () => {
    await rateLimits().getByRole('button', { name: 'New rate limit' }).click();
    await page.getByLabel('Name').fill('research rpm');
    await page.getByLabel('Per').selectOption('rph');
    await page.getByLabel('Limit', { exact: true }).fill('120');
    await page.getByRole('button', { name: 'Create' }).click();
    const row = rateLimits().getByRole('row', { name: /research rpm/ });
    await row.waitFor();
    expect(await row.textContent()).to.contain('120 requests / rph').and.contain('metadata.team = research').and.contain('api_key');

    await rateLimits().getByRole('button', { name: 'Edit research rpm' }).click();
    await page.getByLabel('Limit', { exact: true }).fill('60');
    await page.getByRole('button', { name: 'Save' }).click();
    await rateLimits().getByRole('row', { name: /60 requests \/ rph/ }).waitFor();

    expect(await deleteRow(page, 'research rpm')).to.contain('archived');
    await rateLimits().getByText('None yet.').waitFor();
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('refuses a usage limit whose alert is not below its limit with the gateway\'s message, then creates it and shows its usage', async () => {
    await usageLimits().getByRole('button', { name: 'New usage limit' }).click();
    await page.getByLabel('Name').fill('research budget');
    await page.getByLabel('Credit limit').fill('5');
    await page.getByLabel('Alert threshold').fill('10');
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('body.alert_threshold: must be less than credit_limit');

    await page.getByLabel('Alert threshold').fill('4');
    await page.getByLabel('Periodic reset').selectOption('monthly');
    await page.getByRole('button', { name: 'Create' }).click();
    const row = usageLimits().getByRole('row', { name: /research budget/ });
    await row.waitFor();
    expect(await row.textContent()).to.contain('5 USD').and.contain('monthly');

    await usageLimits().getByRole('button', { name: 'Edit research budget' }).click();
    const usage = page.getByRole('definition').filter({ hasText: 'of 5' });
    await usage.waitFor();
    expect(await usage.textContent()).to.equal('5 of 5');
    expect(await page.getByText('No alerts raised.').isVisible()).to.equal(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await deleteRow(page, 'research budget')).to.contain('Delete usage limit "research budget"');
  });
});
