import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { deleteRow } from './admin-pages.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, startConsoleRig } from './browser.js';

const TOKEN = 'mcp-upstream-token-77f0c2d9e4';

describeInBrowser('console: MCP servers page (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'MCP servers');
  });
  afterEach(async () => page?.context().close());

  const stored = async () => (await fetch(`${rig.gateway.url}/v1/mcp-servers/tools`, { headers: { 'x-gw-api-key': TEST_API_KEY } })).json() as Promise<any>;

  it('registers a server with a bearer token (shown masked), edits it keeping the token, and deletes it', async () => {
    await page.getByRole('button', { name: 'New MCP server' }).click();
    await page.getByLabel('Name').fill('Internal tools');
    await page.getByLabel('Slug').fill('tools');
    await page.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:9/mcp');
    await page.getByLabel('Authentication').selectOption('bearer');
    await page.getByLabel('Token').fill(TOKEN);
    await page.getByLabel('Denied tools').fill('delete_everything');
    await page.getByRole('button', { name: 'Create' }).click();
    const row = page.getByRole('row', { name: /tools/ });
    await row.waitFor();
    expect(await row.textContent()).to.contain('Internal tools').and.contain('bearer').and.contain('all (not delete_everything)');
    const before = await stored();
    expect(before.auth.token).to.match(/^\*+/).and.not.equal(TOKEN);

    await page.getByRole('button', { name: 'Edit tools' }).click();
    expect(await page.getByLabel('Token').inputValue()).to.equal('');
    await page.getByLabel('Allowed tools').fill('search, fetch');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row', { name: /search, fetch/ }).waitFor();
    const after = await stored();
    expect(after.auth).to.deep.equal(before.auth);
    expect(after.allowed_tools).to.deep.equal(['search', 'fetch']);
    expect(await page.content()).not.to.contain(TOKEN);

    expect(await deleteRow(page, 'tools')).to.contain('Delete MCP server "tools"');
    await page.getByText('None yet.').waitFor();
    expect(rig.requested.some((url) => url.includes(TOKEN))).to.equal(false);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('shows the gateway\'s refusal of a header it may not set, naming the field', async () => {
    await page.getByRole('button', { name: 'New MCP server' }).click();
    await page.getByLabel('Slug').fill('headers');
    await page.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:9/mcp');
    await page.getByLabel('Authentication').selectOption('headers');
    await page.getByLabel('Headers').fill('{"Host": "elsewhere.example"}');
    await page.getByRole('button', { name: 'Create' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal('body.auth.headers.Host: "Host" cannot be set: the gateway or the MCP transport sets it');
  });
});
