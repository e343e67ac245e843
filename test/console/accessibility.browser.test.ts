import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { describeInBrowser, foreignRequests, openPage, signIn, startConsoleRig, type ConsoleRig } from './browser.js';

/* The two audits run in the page; the tests compile without the DOM's types, hence `any`. */

/** Controls without an accessible name (a label, aria-label or aria-labelledby), as HTML snippets. */
const unlabelled = (elements: any[]): string[] => elements
  .filter((e) => e.type !== 'hidden' && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
  .map((e) => String(e.outerHTML).slice(0, 120));

/** Buttons and links without text or a name. */
const nameless = (elements: any[]): string[] => elements
  .filter((e) => !String(e.textContent ?? '').trim() && !e.getAttribute('aria-label') && !e.getAttribute('title'))
  .map((e) => String(e.outerHTML).slice(0, 120));

describeInBrowser('console: every page is usable by keyboard and labelled (browser)', function () {
  this.timeout(120_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    rig = await startConsoleRig();
    page = await rig.newPage();
    await signIn(page, rig.gateway.url);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
  });
  after(async () => {
    await page?.context().close();
    await rig?.stop();
  });

  it('reaches the skip link and the navigation with Tab, and opens a page with Enter', async () => {
    await page.goto(`${rig.gateway.url}/console/#/`);
    await page.getByRole('navigation', { name: 'Console' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).to.equal('Skip to content');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).to.equal('Home');
    const playground = page.getByRole('link', { name: 'Playground' });
    await playground.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Playground', level: 1 }).waitFor();
    expect(await playground.getAttribute('aria-current')).to.equal('page');
  });

  it('labels every control of every page and names every button and link', async () => {
    const links = page.getByRole('navigation', { name: 'Console' }).getByRole('link');
    const names = await links.allTextContents();
    expect(names.length).to.be.greaterThan(1);
    for (const name of names) {
      await openPage(page, name);
      const missingLabels = await page.locator('input, select, textarea').evaluateAll(unlabelled);
      expect(missingLabels, `page ${name}`).to.deep.equal([]);
      const missingNames = await page.locator('button, a').evaluateAll(nameless);
      expect(missingNames, `page ${name}`).to.deep.equal([]);
    }
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
  });
});
