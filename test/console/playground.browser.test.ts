import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { type ConsoleRig, describeInBrowser, foreignRequests, signedInOn, startConsoleRig } from './browser.js';

describeInBrowser('console: playground (browser)', function () {
  this.timeout(60_000);
  let rig: ConsoleRig;
  let page: Page;

  before(async () => {
    // The mock takes calls without a provider key: a stored config cannot hold one (integrations do).
    rig = await startConsoleRig({}, { streamChunkDelayMs: 150, requireAuth: false });
  });
  after(async () => rig?.stop());
  beforeEach(async () => {
    page = await rig.newPage();
    await signedInOn(page, rig.gateway.url, 'Playground');
  });
  afterEach(async () => page?.context().close());

  const target = () => JSON.stringify({ provider: 'openai', api_key: 'sk-test', custom_host: `${rig.mock.url}/v1` }, null, 2);

  it('streams the answer in, then shows the response headers', async () => {
    await page.getByLabel('Config').fill(target());
    await page.getByLabel('Message').fill('tell me a long story');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('status', { name: 'Answer' }).or(page.getByLabel('Answer', { exact: true }));
    const seen = new Set<string>();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      seen.add((await answer.textContent()) ?? '');
      if (seen.has('echo: tell me a long story')) break;
      await page.waitForTimeout(40);
    }
    const partial = [...seen].filter((text) => text && text !== 'echo: tell me a long story');
    expect(seen.has('echo: tell me a long story'), [...seen].join(' | ')).to.equal(true);
    expect(partial, 'the answer grew chunk by chunk').to.not.be.empty;
    const headers = page.getByRole('table', { name: 'Response headers' });
    await headers.waitFor();
    expect(await headers.getByRole('row', { name: /x-gw-last-used-option-index/ }).textContent()).to.contain('config');
    expect(await headers.getByRole('row', { name: /x-gw-trace-id/ }).count()).to.equal(1);
    expect(foreignRequests(rig.requested, rig.gateway.url)).to.deep.equal([]);
    expect(rig.mock.requests.at(-1)!.body.stream).to.equal(true);
  });

  it('shows hook_results when guardrails ran', async () => {
    const config = { ...JSON.parse(target()), input_guardrails: [{ id: 'words', 'default.wordCount': { minWords: 1, maxWords: 50 } }] };
    await page.getByLabel('Config').fill(JSON.stringify(config));
    await page.getByLabel('Message').fill('hello there');
    await page.getByLabel('Stream the answer').uncheck();
    await page.getByRole('button', { name: 'Send' }).click();
    const results = page.getByLabel('Hook results');
    await results.waitFor();
    const shown = JSON.parse((await results.textContent())!);
    expect(shown.before_request_hooks[0].id).to.equal('words');
    expect(shown.before_request_hooks[0].verdict).to.equal(true);
  });

  it('shows the gateway\'s own refusal of a bad config, and a local one for broken JSON', async () => {
    const config = JSON.stringify({ strategy: { mode: 'nonsense' }, targets: [{ provider: 'openai' }] });
    const direct = await fetch(`${rig.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-api-key': 'gw-test-key', 'x-gw-config': config },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const refusal = (await direct.json() as { error: { message: string } }).error.message;
    expect(direct.status).to.equal(400);
    await page.getByLabel('Config').fill(config);
    await page.getByLabel('Message').fill('hi');
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).to.equal(refusal);
    await page.getByLabel('Config').fill('{ not json');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').filter({ hasText: 'Config is not valid JSON' }).waitFor();
  });

  it('routes by a stored config named by its id', async () => {
    const stored = await fetch(`${rig.gateway.url}/v1/configs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gw-api-key': 'gw-test-key' },
      body: JSON.stringify({ name: 'playground', config: { provider: 'openai', custom_host: `${rig.mock.url}/v1` } }),
    });
    const { id } = await stored.json() as { id: string };
    expect(stored.status).to.equal(200);
    await page.getByLabel('Config').fill(id);
    await page.getByLabel('Message').fill('from a stored config');
    await page.getByLabel('Stream the answer').uncheck();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Answer', { exact: true }).filter({ hasText: 'echo: from a stored config' }).waitFor();
  });
});
