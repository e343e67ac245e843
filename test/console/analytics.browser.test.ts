/**
 * The console's Analytics page against a real gateway: charts drawn from
 * /v1/analytics/graphs/overview with their figures in a summary and a data table, and the groups
 * table, for a chosen range.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { CHAT_BODY, directHeaders } from '../helpers/gateway.js';
import { type ConsoleRig, describeInBrowser, foreignRequests, inPage, signedInOn, startConsoleRig } from './browser.js';

describeInBrowser('console: analytics (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
    rig.mock.next({ status: 500 });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${rig.gateway.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(rig.mock), body: JSON.stringify(CHAT_BODY) });
      await res.arrayBuffer();
    }
    // The recorder writes every 200 ms.
    await new Promise((r) => setTimeout(r, 400));
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Analytics');
  });
  after(async () => {
    await page?.context().close();
    await rig?.stop();
  });

  it('draws the charts, each with its figures in a summary and a data table', async () => {
    const figure = page.getByRole('figure', { name: 'Requests and errors' });
    await figure.getByText('3 requests, 1 error').waitFor();
    const box = await figure.locator('canvas').boundingBox();
    expect(box?.width).to.be.above(100);
    expect(box?.height).to.be.above(50);
    for (const name of ['Latency', 'Tokens', 'Cost', 'Cache hit rate']) {
      expect(await page.getByRole('figure', { name }).locator('canvas').count(), name).to.equal(1);
    }
    await figure.getByText('Requests and errors: data table').click();
    const table = figure.getByRole('table', { name: 'Requests and errors data' });
    const cells = await table.getByRole('row').evaluateAll((trs) => trs.slice(1).map((tr) => Number((tr as unknown as { cells: { textContent: string }[] }).cells[1]!.textContent)));
    expect(cells.reduce((a, b) => a + b, 0)).to.equal(3);
    expect(await page.getByRole('img', { name: /^Latency over time: p50 \d+ ms/ }).count()).to.equal(1);
  });

  it('shows the groups table with the provider\'s row, and groups by model on request', async () => {
    const byProvider = page.getByRole('table', { name: 'Figures by provider' });
    const openai = byProvider.getByRole('row', { name: /^openai/ });
    await openai.waitFor();
    expect(await openai.getByRole('cell').first().textContent()).to.equal('3');
    await page.getByLabel('Group by').selectOption('model');
    await page.getByRole('table', { name: 'Figures by model' }).getByRole('row', { name: /gpt-4o-mini/ }).waitFor();
    expect(await inPage<string>(page, 'location.hash')).to.contain('group=model');
  });

  it('changes the range: a shorter span gives finer buckets, kept in the URL', async () => {
    await page.getByLabel('Time range').selectOption('1h');
    await page.getByText('by 1m buckets').waitFor();
    expect(await inPage<string>(page, 'location.hash')).to.contain('range=1h');
    await page.getByLabel('Time range').selectOption('custom');
    await page.getByLabel('From', { exact: true }).fill('2020-01-01T00:00');
    await page.getByLabel('To', { exact: true }).fill('2020-01-02T00:00');
    await page.getByRole('button', { name: 'Apply range' }).click();
    await page.getByRole('figure', { name: 'Requests and errors' }).getByText('0 requests').waitFor();
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });
});
