import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { deleteRow, openAdminPage } from './admin-pages.js';
import { describeInBrowser, foreignRequests, startConsoleRig, type ConsoleRig } from './browser.js';

describeInBrowser('console: Guardrails page (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await openAdminPage(page, rig.gateway.url, 'guardrails', 'Guardrails');
  });
  afterEach(async () => page?.context().close());

  it('creates a guardrail from JSON checks and actions, edits it, and deletes it', async () => {
    await page.getByRole('button', { name: 'New guardrail' }).click();
    await page.getByLabel('Name').fill('Short answers');
    await page.getByLabel('Slug').fill('short');
    await page.getByLabel('Checks').fill(JSON.stringify([{ id: 'default.wordCount', parameters: { maxWords: 50 } }]));
    await page.getByLabel('Actions').fill('{"deny": true}');
    await page.getByRole('button', { name: 'Create' }).click();
    const row = page.getByRole('row', { name: /short/ });
    await row.waitFor();
    expect(await row.textContent()).to.contain('Short answers').and.contain('default.wordCount').and.contain('yes');

    await page.getByRole('button', { name: 'Edit short' }).click();
    expect(JSON.parse(await page.getByLabel('Checks').inputValue())).to.deep.equal([{ id: 'default.wordCount', parameters: { maxWords: 50 } }]);
    await page.getByLabel('Actions').fill('{"deny": false}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Edit guardrail short' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /short/ }).textContent()).to.contain('no');

    expect(await deleteRow(page, 'short')).to.contain('Delete guardrail "short"');
    await page.getByText('None yet.').waitFor();
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('shows the gateway\'s refusal of a check it does not know, naming the field', async () => {
    await page.getByRole('button', { name: 'New guardrail' }).click();
    await page.getByLabel('Name').fill('Broken');
    await page.getByLabel('Checks').fill(JSON.stringify([{ id: 'default.noSuchCheck', parameters: {} }]));
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/^body\.checks\.0\.id: .*default\.noSuchCheck/);
    expect(await page.getByRole('table', { name: 'guardrails' }).count()).to.equal(0);
  });
});
