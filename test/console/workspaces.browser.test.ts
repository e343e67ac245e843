/**
 * The Workspaces page: create one, edit it, add a member by email (the user is made when the
 * organisation has none with it), change their role, remove them, and delete (archive) the workspace.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { client } from '../plugins/admin/api-keys/helpers.js';
import { TEST_API_KEY } from '../helpers/gateway.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, startConsoleRig } from './browser.js';

describeInBrowser('console: workspaces (browser)', function () {
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
    await signedInOn(page, rig.gateway.url, 'Workspaces');
  });
  afterEach(async () => page?.context().close());

  const create = async (name: string, slug = '') => {
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create workspace' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Slug').fill(slug);
    await dialog.getByRole('button', { name: 'Create' }).click();
    return dialog;
  };

  it('creates a workspace, adds a member by email, changes their role and removes them', async () => {
    await create('Research team');
    await page.getByRole('heading', { level: 1, name: 'Workspace Research team' }).waitFor();
    const stored = (await admin().get('/v1/workspaces/research-team')).json;
    expect(stored.name).to.equal('Research team');

    await page.getByLabel('User id or email').fill('ada@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('manager');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('status').filter({ hasText: 'Added ada@example.com as manager.' }).waitFor();
    const members = async () => (await admin().get(`/v1/workspaces/${stored.id}/members`)).json.data;
    expect((await members()).map((m: { email: string; role: string }) => [m.email, m.role])).to.deep.equal([['ada@example.com', 'manager']]);

    const changed = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/members/'));
    await page.getByLabel('Role of ada@example.com').selectOption('member');
    expect((await changed).status()).to.equal(200);
    expect((await members())[0].role).to.equal('member');

    await page.getByRole('button', { name: 'Remove ada@example.com' }).click();
    await page.getByRole('dialog', { name: 'Remove ada@example.com' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove ada@example.com' }).waitFor({ state: 'detached' });
    expect(await members()).to.deep.equal([]);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('adds an existing user by id and shows the gateway\'s refusal of an unknown one', async () => {
    const user = (await admin().post('/v1/users', { email: 'grace@example.com' })).json;
    await create('Ops', 'ops');
    await page.getByRole('heading', { level: 1, name: 'Workspace Ops' }).waitFor();
    await page.getByLabel('User id or email').fill(user.id);
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('cell', { name: 'grace@example.com', exact: true }).waitFor();

    await page.getByLabel('User id or email').fill('no-such-user');
    await page.getByRole('button', { name: 'Add member' }).click();
    const expected = await admin().post('/v1/workspaces/ops/members', { user_id: 'no-such-user', role: 'member' });
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).to.equal(expected.json.error.message);
  });

  it('shows the gateway\'s message for a bad slug, edits a workspace and deletes (archives) it', async () => {
    const dialog = await create('Bad', 'Not A Slug');
    const expected = await admin().post('/v1/workspaces', { name: 'Bad', slug: 'Not A Slug' });
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).to.equal(expected.json.error.message);
    await dialog.getByLabel('Slug').fill('short-lived');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspace Bad' }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit workspace Bad' });
    await editor.getByLabel('Name', { exact: true }).fill('Short lived');
    await editor.getByLabel('Description').fill('for a week');
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspace Short lived' }).waitFor();
    expect((await admin().get('/v1/workspaces/short-lived')).json.description).to.equal('for a week');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete workspace Short lived' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
    expect((await admin().get('/v1/workspaces/short-lived')).json.status).to.equal('archived');
    expect(await page.getByRole('cell', { name: 'short-lived' }).count()).to.equal(0);
    await page.getByLabel('Show archived').check();
    await page.getByRole('cell', { name: 'short-lived' }).waitFor();
  });
});
