/**
 * Takes the screenshots of docs/console/: one per page of the console's navigation, over a gateway
 * seeded with a few requests, a stored config and a key.
 *   npm run build && node dist/test/console/screenshots.js
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { directHeaders } from '../helpers/gateway.js';
import { openPage, signIn, startConsoleRig, type ConsoleRig } from './browser.js';

const OUT = join(process.cwd(), 'docs', 'console');

async function seed(rig: ConsoleRig): Promise<void> {
  const chat = (model: string, content: string) => fetch(`${rig.gateway.url}/v1/chat/completions`, {
    method: 'POST', headers: directHeaders(rig.mock, { 'x-gw-metadata': JSON.stringify({ team: 'search' }) }),
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  }).then((res) => res.text());
  for (let i = 0; i < 12; i++) await chat(i % 3 === 0 ? 'gpt-4o' : 'gpt-4o-mini', `question ${i}`);
  rig.mock.next({ status: 500 });
  await chat('gpt-4o-mini', 'this one fails');
  const admin = { 'content-type': 'application/json', 'x-gw-api-key': 'gw-test-key' };
  await fetch(`${rig.gateway.url}/v1/configs`, {
    method: 'POST', headers: admin,
    body: JSON.stringify({ name: 'fallback to mini', config: { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', custom_host: `${rig.mock.url}/v1` }, { provider: 'openai', custom_host: `${rig.mock.url}/v1`, override_params: { model: 'gpt-4o-mini' } }] } }),
  });
  await fetch(`${rig.gateway.url}/v1/api-keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'search team', type: 'organisation-service' }) });
}

/** What a page's picture shows beyond its first view. */
const SCENES: Record<string, (page: Page, rig: ConsoleRig) => Promise<void>> = {
  Analytics: async (page) => {
    await page.getByLabel('Time range').selectOption('15m');
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
  },
  Playground: async (page, rig) => {
    await page.getByLabel('Config').fill(JSON.stringify({ provider: 'openai', api_key: 'sk-demo', custom_host: `${rig.mock.url}/v1`,
      input_guardrails: [{ id: 'length', 'default.wordCount': { minWords: 1, maxWords: 100 } }] }, null, 2));
    await page.getByLabel('Message').fill('Summarise the gateway in one line');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('table', { name: 'Response headers' }).waitFor();
  },
};

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, name), fullPage: true });
  console.log(`docs/console/${name}`);
}

function fileName(label: string): string {
  return `${label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'home'}.png`;
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const rig = await startConsoleRig();
  try {
    await seed(rig);
    const page = await rig.newPage();
    await signIn(page, rig.gateway.url);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.waitFor();
    for (const label of await nav.getByRole('link').allTextContents()) {
      await openPage(page, label);
      await page.waitForTimeout(800);
      await SCENES[label]?.(page, rig);
      await shoot(page, fileName(label));
    }
    await openPage(page, 'Logs');
    await page.getByRole('table', { name: 'Requests' }).getByRole('row').nth(1).click();
    await page.getByRole('dialog').waitFor();
    await shoot(page, 'logs-detail.png');
  } finally {
    await rig.stop();
  }
}

main().catch((e: Error) => {
  console.error(e.stack);
  process.exit(1);
});
