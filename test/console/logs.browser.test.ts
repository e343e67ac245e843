/**
 * The console's Logs page against a real gateway: requests made through it appear (live, without
 * a reload), filters map to /v1/logs and stay in the URL, and a row opens the request's detail.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { CHAT_BODY, directHeaders } from '../helpers/gateway.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, inPage, signedInOn, startConsoleRig, until } from './browser.js';

describeInBrowser('console: logs (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  const chat = async (model: string) => {
    const res = await fetch(`${rig.gateway.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(rig.mock), body: JSON.stringify({ ...CHAT_BODY, model }) });
    await res.arrayBuffer();
    return res.status;
  };
  const rows = () => page.getByRole('table', { name: 'Requests' }).getByRole('row').filter({ has: page.getByRole('cell') });

  before(async () => {
    rig = await startConsoleRig();
    expect(await chat('gpt-4o-mini')).to.equal(200);
    rig.mock.next({ status: 500 });
    expect(await chat('gpt-4o')).to.equal(500);
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Logs');
  });
  afterEach(async () => page?.context().close());

  it('lists the requests newest first, filters by status and model in the URL, and opens a detail on Enter', async () => {
    await rows().nth(1).waitFor();
    expect(await rows().nth(0).textContent()).to.contain('500');
    expect(await rows().nth(1).textContent()).to.contain('gpt-4o-mini');

    await page.getByLabel('Status', { exact: true }).fill('200');
    await page.getByLabel('Model', { exact: true }).fill('gpt-4o-mini');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.hash.includes('status_code=200'));
    await until(async () => (await rows().count()) === 1, 'one row');
    expect(await inPage<string>(page, 'location.hash')).to.contain('model=gpt-4o-mini');
    const row = rows().first();
    expect(await row.textContent()).to.contain('200');

    // A reload of the linked view keeps the filters.
    await page.reload();
    await page.getByRole('heading', { name: 'Logs', level: 1 }).waitFor();
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).to.equal('200');
    await rows().first().focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('dialog', { name: 'Request details' });
    await detail.getByText('Usage').waitFor();
    const facts = await detail.getByRole('definition').allTextContents();
    const terms = await detail.getByRole('term').allTextContents();
    const fact = (term: string) => facts[terms.indexOf(term)];
    expect(fact('Status')).to.equal('200');
    expect(fact('Model')).to.equal('gpt-4o-mini');
    expect(fact('Route')).to.be.a('string').and.not.equal('');
    expect(fact('Cache status')).to.be.a('string').and.not.equal('');
    expect(fact('Retries')).to.equal('0');
    expect(fact('Usage')).to.match(/\d+ prompt \+ \d+ completion = \d+ tokens/);
    expect(await detail.getByText('Hook results').isVisible()).to.equal(true);
    // Escape closes it and gives the focus back to the row.
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    expect(await inPage<string>(page, 'document.activeElement.tagName')).to.equal('TR');
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });

  it('shows a new request within 2 s without a reload, keeping the focus and what is being typed', async () => {
    await rows().first().waitFor();
    const trace = page.getByLabel('Trace id');
    await trace.fill('half-typed');
    await trace.focus();
    const started = Date.now();
    expect(await chat('gpt-live-row')).to.equal(200);
    await rows().filter({ hasText: 'gpt-live-row' }).waitFor({ timeout: 2_000 });
    expect(Date.now() - started).to.be.below(2_000);
    expect(await inPage<string>(page, 'document.activeElement.value')).to.equal('half-typed');
  });

  it('shows the gateway\'s refusal of a bad filter', async () => {
    await page.getByLabel('Metadata').fill('not json');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/query\.metadata: must be a JSON object/);
  });

  it('pages the list, 50 a page, the page kept in the URL', async () => {
    await Promise.all(Array.from({ length: 50 }, () => chat('gpt-paged')));
    await page.getByText('Page 1 of 2').waitFor();
    expect(await rows().count()).to.equal(50);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    expect(await inPage<string>(page, 'location.hash')).to.contain('current_page=1');
    expect(await rows().count()).to.be.within(1, 50);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).to.equal(true);
  });
});
