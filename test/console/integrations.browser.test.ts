import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { deleteRow } from './admin-pages.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, inPage, signedInOn, startConsoleRig } from './browser.js';

const PROVIDER_KEY = 'sk-console-test-9d41c7be2a55';

describeInBrowser('console: Integrations page (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Integrations');
  });
  afterEach(async () => page?.context().close());

  it('creates an integration whose key is shown masked only, edits it keeping the key, and deletes it', async () => {
    await page.getByRole('button', { name: 'New integration' }).click();
    await page.getByLabel('Name').fill('OpenAI production');
    await page.getByLabel('Slug').fill('openai-prod');
    await page.getByLabel('Provider').fill('openai');
    await page.getByLabel('API key').fill(PROVIDER_KEY);
    await page.getByRole('button', { name: 'Create' }).click();
    const row = page.getByRole('row', { name: /openai-prod/ });
    await row.waitFor();
    expect(await row.textContent()).to.contain('OpenAI production').and.contain('********2a55');
    expect(await page.content()).not.to.contain(PROVIDER_KEY);

    await page.getByRole('button', { name: 'Edit openai-prod' }).click();
    expect(await page.getByLabel('API key').inputValue()).to.equal('');
    expect(await page.getByText('Stored: ********2a55').isVisible()).to.equal(true);
    await page.getByLabel('Name').fill('OpenAI (prod)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row', { name: /OpenAI \(prod\)/ }).waitFor();
    const stored = await (await fetch(`${rig.gateway.url}/v1/integrations/openai-prod`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json() as { name: string; key: string };
    expect(stored).to.include({ name: 'OpenAI (prod)', key: '********2a55' });

    expect(await deleteRow(page, 'openai-prod')).to.contain('Delete integration "openai-prod"');
    await page.getByText('None yet.').waitFor();
    expect(rig.requested.some((url) => url.includes(PROVIDER_KEY) || url.includes(TEST_API_KEY))).to.equal(false);
    expect(await inPage(page, 'localStorage.length')).to.equal(0);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('shows the gateway\'s refusal of a bad slug, and names a JSON field that does not parse', async () => {
    await page.getByRole('button', { name: 'New integration' }).click();
    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByLabel('API key').fill(PROVIDER_KEY);
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('body.slug: must be 1 to 63 lower-case letters, digits, _ or -, starting with a letter or digit');

    await page.getByLabel('Slug').fill('fine');
    await page.getByLabel('Configurations').fill('{ nope');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('alert').filter({ hasText: 'Configurations: not valid JSON' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'New integration' }).waitFor({ state: 'detached' });
  });
});
