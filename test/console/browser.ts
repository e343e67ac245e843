/**
 * The console's browser tests run in Debian's Chromium (never a downloaded browser), driven by
 * playwright-core. Without a `chromium` on the PATH they are skipped with a note, except under
 * CI=true, where .ci/run installs it and a missing browser is a failure. They run once, on the
 * SQLite pass: the routes behind the pages are tested on both stores by their own suites.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startMockOpenAI, type MockOpenAI, type MockOptions } from '../fixtures/mock-openai.js';
import { startGateway, TEST_API_KEY, type StartOptions, type TestGateway } from '../helpers/gateway.js';

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The flags this machine needs: no sandbox (root), no GPU, and no calls home of Chromium's own. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run',
  '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions',
];

export function chromiumPath(): string | undefined {
  const named = process.env['GW_CHROMIUM'];
  if (named) return named;
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'chromium');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** `describe` for browser tests: skipped (with the reason) when no Chromium is here, or on the PostgreSQL pass. */
export function describeInBrowser(title: string, body: (this: Mocha.Suite) => void): void {
  const executable = chromiumPath();
  if (process.env['GW_TEST_RECORD_STORE'] === 'postgres') {
    describe.skip(`${title} (browser tests run on the SQLite pass only)`, body);
  } else if (!executable && process.env['CI'] !== 'true') {
    describe.skip(`${title} (no chromium on the PATH: apt-get install chromium)`, body);
  } else {
    describe(title, body);
  }
}

export interface ConsoleRig {
  gateway: TestGateway;
  mock: MockOpenAI;
  browser: Browser;
  /** Every URL the pages asked for, to check that none left the gateway's origin. */
  requested: string[];
  /** The requests refused for leaving loopback, with the page (frame) that made each. */
  blocked: { url: string; from: string }[];
  newPage(): Promise<Page>;
  stop(): Promise<void>;
}

/** A gateway (default preset), a mock OpenAI provider and a headless Chromium. */
export async function startConsoleRig(options: StartOptions = {}, mockOptions: MockOptions = {}): Promise<ConsoleRig> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no chromium on the PATH (CI installs Debian\'s chromium package)');
  const mock = await startMockOpenAI(mockOptions);
  const gateway = await startGateway(options);
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
  const requested: string[] = [];
  const blocked: { url: string; from: string }[] = [];
  return {
    gateway, mock, browser, requested, blocked,
    newPage: async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      // Nothing leaves loopback, whatever a page asks for: such a request is recorded, then refused.
      await context.route((url) => url.protocol !== 'data:' && !LOOPBACK_HOSTS.has(url.hostname), (route) => {
        blocked.push({ url: route.request().url(), from: route.request().frame().url() });
        return route.abort();
      });
      const page = await context.newPage();
      page.on('request', (request) => void requested.push(request.url()));
      return page;
    },
    stop: async () => {
      await browser.close();
      await gateway.stop();
      await mock.close();
    },
  };
}

/** Opens the console and signs in with `key` (the test gateway's bootstrap key by default). */
export async function signIn(page: Page, gatewayUrl: string, key: string = TEST_API_KEY): Promise<void> {
  await page.goto(`${gatewayUrl}/console/`);
  await page.getByLabel('Gateway API key').fill(key);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Requested URLs whose origin is not the gateway's. */
export function foreignRequests(requested: readonly string[], gatewayUrl: string): string[] {
  const origin = new URL(gatewayUrl).origin;
  return requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
}

/** An expression evaluated in the page (the tests compile without the DOM's types). */
export function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate(expression) as Promise<T>;
}

/** Opens a page from the navigation and waits until it is the one shown and its data has loaded. */
export async function openPage(page: Page, name: string): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
  await link.click();
  await page.locator('nav a[aria-current="page"]', { hasText: name }).waitFor();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

/**
 * Waits until `check` holds, asking again every 50 ms (playwright's waitForFunction polls with
 * eval in the page, which the console's CSP refuses).
 */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs in with the bootstrap key and opens the page named `name` in the navigation. */
export async function signedInOn(page: Page, gatewayUrl: string, name: string): Promise<void> {
  await signIn(page, gatewayUrl);
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  await openPage(page, name);
}
