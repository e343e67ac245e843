/** What the administration pages' browser tests share: opening a page signed in, and confirming a delete. */
import type { Page } from 'playwright-core';
import { signIn } from './browser.js';

/** Signs in with the bootstrap key and opens `#/<page>`, waiting for its heading. */
export async function openAdminPage(page: Page, gatewayUrl: string, id: string, heading: string): Promise<void> {
  await signIn(page, gatewayUrl);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await page.getByRole('link', { name: heading, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  if (!page.url().endsWith(`#/${id}`)) throw new Error(`expected #/${id}, at ${page.url()}`);
}

/** Clicks "Delete <name>" and accepts the confirmation the page asks for. */
export async function deleteRow(page: Page, name: string): Promise<string> {
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  await page.getByRole('button', { name: `Delete ${name}`, exact: true }).waitFor({ state: 'detached' });
  return asked;
}
