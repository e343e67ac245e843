/**
 * The API keys page: a key created in the browser works from Node with the secret read off the
 * page; rotation hands out a new secret (the old one lasts its window, on a clock the test moves);
 * deletion stops it; a refusal shows the gateway's own message; secrets never reach storage.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { authWith, client, ManualClock, MINUTE } from '../plugins/admin/api-keys/helpers.js';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, inPage, signedInOn, startConsoleRig } from './browser.js';

describeInBrowser('console: API keys (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;
  const clock = new ManualClock();

  before(async () => {
    rig = await startConsoleRig({ plugins: [{ use: authWith(clock), options: { rotationCheckIntervalMs: 0 } }] });
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'API keys');
  });
  afterEach(async () => page?.context().close());

  /** GET /v1/configs with `key`: the status. */
  const listConfigs = async (key: string) => (await client(rig.gateway.url, key).get('/v1/configs')).status;
  const chat = async (key: string) => (await fetch(`${rig.gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gw-api-key': key, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${rig.mock.url}/v1`, authorization: 'Bearer sk-mock' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  })).status;

  const createKey = async (name: string, scopes: string): Promise<string> => {
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create key' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Scopes').fill(scopes);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const secret = page.getByRole('dialog', { name: `Key "${name}" created` }).getByLabel('New secret');
    await secret.waitFor();
    return secret.inputValue();
  };
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });

  it('creates a key whose secret, read off the page once, works from Node; closing forgets it', async () => {
    const secret = await createKey('ci reader', 'configs.list');
    expect(secret).to.match(/\S{20,}/);
    expect(await page.getByText('Shown once.').isVisible()).to.equal(true);
    expect(await listConfigs(secret)).to.equal(200);
    expect(await chat(secret)).to.equal(200);
    expect(await client(rig.gateway.url, secret).get('/v1/api-keys').then((r) => r.status)).to.equal(403);

    await page.getByRole('button', { name: 'Done' }).click();
    await row('ci reader').waitFor();
    expect(await row('ci reader').textContent()).to.contain('configs.list');
    expect(await inPage(page, 'document.body.innerHTML.includes(' + JSON.stringify(secret) + ')')).to.equal(false);
    expect(await inPage(page, 'JSON.stringify(sessionStorage) + JSON.stringify(localStorage)')).to.not.contain(secret);
    expect(rig.requested.some((url) => url.includes(secret))).to.equal(false);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('Escape closes the form, and a refused key shows the gateway\'s message', async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Create key' }).getByLabel('Name', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create key' });
    await dialog.getByLabel('Name', { exact: true }).fill('bad scopes');
    await dialog.getByLabel('Scopes').fill('Not.A.Scope');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const expected = await client(rig.gateway.url, TEST_API_KEY).post('/v1/api-keys', { name: 'bad scopes', type: 'organisation-service', scopes: ['Not.A.Scope'] });
    expect(expected.status).to.equal(400);
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).to.equal(expected.json.error.message);
  });

  it('rotates: the new secret works, the old one until its window ends', async () => {
    const old = await createKey('rotating', '');
    await page.getByRole('button', { name: 'Done' }).click();
    await row('rotating').getByRole('button', { name: 'Rotate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate key "rotating"' });
    await confirm.getByRole('button', { name: 'Rotate' }).click();
    const shown = page.getByRole('dialog', { name: 'Key "rotating" rotated' });
    const fresh = await shown.getByLabel('New secret').inputValue();
    expect(fresh).to.not.equal(old);
    expect(await shown.textContent()).to.contain('previous secret keeps working until');
    expect(await chat(fresh)).to.equal(200);
    expect(await chat(old)).to.equal(200);
    clock.advance(30 * MINUTE + 1000);
    expect(await chat(old)).to.equal(401);
    expect(await chat(fresh)).to.equal(200);
  });

  it('deletes after a confirmation: the secret stops working and the row goes', async () => {
    const secret = await createKey('doomed', 'configs.list');
    await page.getByRole('button', { name: 'Done' }).click();
    await row('doomed').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete key "doomed"' });
    expect(await confirm.textContent()).to.contain('stops working at once');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row('doomed').waitFor({ state: 'detached' });
    expect(await listConfigs(secret)).to.equal(401);
  });
});
