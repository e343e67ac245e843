/**
 * The Configs page: a refused config shows exactly the gateway's 400 message, JSON that does not
 * parse is caught before any request, a valid config is saved and listed, and an edit makes a new
 * version that the page shows beside the old one.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { client } from '../plugins/admin/api-keys/helpers.js';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, signIn, startConsoleRig } from './browser.js';

describeInBrowser('console: configs (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;
  const admin = () => client(rig.gateway.url, TEST_API_KEY);

  before(async () => {
    rig = await startConsoleRig();
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Configs');
  });
  afterEach(async () => page?.context().close());

  const openEditor = async (name: string, config: string) => {
    await page.getByRole('button', { name: 'New config' }).click();
    const dialog = page.getByRole('dialog', { name: 'New config' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Config', { exact: true }).fill(config);
    await dialog.getByRole('button', { name: 'Save' }).click();
    return dialog;
  };

  for (const [what, config] of [
    ['an unknown strategy mode', { strategy: { mode: 'sideways' }, targets: [{ provider: 'openai' }] }],
    ['a condition naming no target', { strategy: { mode: 'conditional', conditions: [{ query: {}, then: 'x' }], default: 'y' }, targets: [{ provider: 'openai', name: 'y' }] }],
  ] as const) {
    it(`shows the gateway's own message for ${what}`, async () => {
      const expected = await admin().post('/v1/configs', { name: 'refused', config });
      expect(expected.status, expected.text).to.equal(400);
      const dialog = await openEditor('refused', JSON.stringify(config));
      await dialog.getByRole('alert').waitFor();
      expect(await dialog.getByRole('alert').textContent()).to.equal(expected.json.error.message);
      expect((await admin().get('/v1/configs')).json.data.map((c: { name: string }) => c.name)).to.not.include('refused');
    });
  }

  it('catches JSON that does not parse before sending anything', async () => {
    const before = rig.requested.length;
    const dialog = await openEditor('broken', '{ "strategy": ');
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).to.match(/^Config is not valid JSON: /);
    expect(rig.requested.slice(before).filter((url) => url.includes('/v1/configs') && !url.includes('page_size'))).to.deep.equal([]);
    await dialog.getByLabel('Config', { exact: true }).fill('[1, 2]');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByRole('alert').textContent()).to.equal('Config must be a JSON object ({ … }).');
  });

  it('saves a valid config, lists it, and an edit makes version 2 beside version 1', async () => {
    const v1 = { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai' }, { provider: 'anthropic' }] };
    await openEditor('fallback pair', JSON.stringify(v1));
    await page.getByRole('heading', { level: 1, name: 'Config fallback pair' }).waitFor();
    const stored = (await admin().get('/v1/configs')).json.data.find((c: { name: string }) => c.name === 'fallback pair');
    expect(stored.version).to.equal(1);
    expect(await page.getByLabel('Config version 1').textContent()).to.equal(JSON.stringify(v1, null, 2));

    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit config fallback pair' });
    expect(await editor.getByLabel('Config', { exact: true }).inputValue()).to.equal(JSON.stringify(v1, null, 2));
    const v2 = { strategy: { mode: 'single' }, targets: [{ provider: 'openai' }] };
    await editor.getByLabel('Config', { exact: true }).fill(JSON.stringify(v2));
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Config version 2').waitFor();
    expect(await page.getByLabel('Config version 2').textContent()).to.equal(JSON.stringify(v2, null, 2));
    expect((await admin().get(`/v1/configs/${stored.id}?version=2`)).json.config).to.deep.equal(v2);

    await page.getByLabel('Version', { exact: true }).selectOption('1');
    await page.getByLabel('Config version 1').waitFor();
    expect(await page.getByLabel('Config version 1').textContent()).to.equal(JSON.stringify(v1, null, 2));

    await page.getByRole('link', { name: '← Configs' }).click();
    const row = page.getByRole('row').filter({ hasText: 'fallback pair' });
    expect(await row.getByRole('cell').nth(3).textContent()).to.equal('2');
    await row.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Config fallback pair' }).waitFor();
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('shows a reader neither the other admin pages nor the buttons that change configs', async () => {
    const reader = (await admin().post('/v1/api-keys', { name: 'reader', type: 'organisation-service', scopes: ['configs.list', 'configs.read'] })).json;
    const own = await rig.newPage();
    try {
      await signIn(own, rig.gateway.url, reader.key);
      await own.getByRole('link', { name: 'Configs' }).click();
      await own.getByRole('heading', { level: 1, name: 'Configs' }).waitFor();
      expect(await own.getByRole('link', { name: 'API keys' }).count()).to.equal(0);
      expect(await own.getByRole('link', { name: 'Workspaces' }).count()).to.equal(0);
      expect(await own.getByRole('button', { name: 'New config' }).count()).to.equal(0);
    } finally {
      await own.context().close();
    }
  });
});
