/** What the administration pages' browser tests share: confirming a delete. */
import type { Page } from 'playwright-core';

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
