import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { deleteRow } from './admin-pages.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, startConsoleRig, until } from './browser.js';

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
    await signedInOn(page, rig.gateway.url, 'Guardrails');
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
    // The list is read again after the save: wait for the new verdict rather than the old row.
    await until(async () => (await page.getByRole('row', { name: /short/ }).getByRole('cell', { name: 'no', exact: true }).count()) === 1, 'the edited row');

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
