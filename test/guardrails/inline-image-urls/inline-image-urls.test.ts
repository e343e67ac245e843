import { expect } from 'chai';
import type { Runtime } from '../../../core/index.js';
import { imageUrlsOf } from '../../../guardrails/inline-image-urls/image-urls.js';
import InlineImageUrlsGuardrail from '../../../guardrails/inline-image-urls/index.js';
import type { InlineImageUrlsParams } from '../../../guardrails/inline-image-urls/params.js';
import { input, loadCheck, run, validateParams, type TestableCheck } from '../helpers.js';
import { startServer, type LocalServer } from '../local-server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('guardrail default.inlineImageUrls', () => {
  let check: TestableCheck<InlineImageUrlsParams>;
  let guarded: TestableCheck<InlineImageUrlsParams>;
  const runtimes: Runtime[] = [];
  let images: LocalServer;
  before(async () => {
    const open = await loadCheck<InlineImageUrlsParams>(InlineImageUrlsGuardrail, 'default.inlineImageUrls', { options: { allowPrivateNetwork: true } });
    const closed = await loadCheck<InlineImageUrlsParams>(InlineImageUrlsGuardrail, 'default.inlineImageUrls');
    check = open.check;
    guarded = closed.check;
    runtimes.push(open.runtime, closed.runtime);
    images = await startServer((req, res) => {
      const path = req.path;
      if (path === '/cat.png') return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PNG.length) }).end(PNG);
      if (path === '/big.png') return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' }).end(Buffer.alloc(5000));
      if (path === '/chunked.png') {
        // No content-length: the size is counted while reading.
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000));
        return void res.end();
      }
      if (path === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      if (path === '/slow.png') return;
      res.writeHead(404).end();
    });
  });
  after(async () => {
    await images.close();
    for (const r of runtimes) await r.close();
  });

  const chat = (...urls: string[]) => ({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, ...urls.map((url) => ({ type: 'image_url', image_url: { url } }))] }],
  });
  const withImages = (urls: string[], provider = 'openai') => input('what is this?', { json: chat(...urls), provider });

  it('validates params: defaults 20 MB, 30000 ms per image, 31000 ms budget, failOnError false', () => {
    expect(validateParams(check, {}).value).to.deep.equal({ maxSizeBytes: 20 * 1024 * 1024, timeoutMs: 30000, timeout: 31000, failOnError: false });
    expect(validateParams(check, { maxSizeBytes: 0 }).ok).to.equal(false);
    expect(validateParams(check, { providers: 'openai' }).ok).to.equal(false);
    expect(check.phases).to.deep.equal(['beforeRequest', 'input']);
  });

  it('finds http(s) image URLs in chat parts, skipping data: URLs and text', () => {
    const json = { messages: [{ role: 'user', content: 'text only' }, { role: 'user', content: [
      { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
      { type: 'image_url', image_url: 'http://x.test/b.jpg' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ] }] };
    expect(imageUrlsOf(json)).to.deep.equal(['https://x.test/a.png', 'http://x.test/b.jpg']);
    expect(imageUrlsOf({ prompt: 'x' })).to.deep.equal([]);
  });

  it('passes reachable images within the size limit', async () => {
    const result = await run(check, { failOnError: true }, withImages([`${images.url}/cat.png`, `${images.url}/chunked.png`]));
    expect(result.verdict).to.equal(true);
    expect((result.data as { images: unknown[] }).images).to.deep.equal([
      { url: `${images.url}/cat.png`, contentType: 'image/png', sizeBytes: PNG.length },
      { url: `${images.url}/chunked.png`, contentType: 'image/png', sizeBytes: 10000 },
    ]);
  });

  it('reports too large, not an image, 404 and time-outs; fails only with failOnError', async () => {
    const urls = [`${images.url}/big.png`, `${images.url}/chunked.png`, `${images.url}/page.html`, `${images.url}/gone.png`, `${images.url}/slow.png`];
    const params = { maxSizeBytes: 4096, timeoutMs: 100 };
    const reported = await run(check, params, withImages(urls));
    expect(reported.verdict).to.equal(true);
    expect((reported.data as { problems: { problem: string }[] }).problems.map((p) => p.problem)).to.deep.equal([
      'size 5000 bytes exceeds 4096',
      'size exceeds 4096 bytes',
      'content-type text/html is not an image',
      'answered HTTP 404',
      'no answer within 100 ms',
    ]);
    expect(reported.data).not.to.have.property('explanation');
    const failed = await run(check, { ...params, failOnError: true }, withImages(urls));
    expect(failed.verdict).to.equal(false);
    expect(failed.data).to.include({ checked: 5, unchecked: 0, explanation: '5 image URL(s) with problems' });
  });

  it('keeps each image within the check budget (timeout) so the check, not the runner, reports slow images', async () => {
    const started = performance.now();
    const result = await run(check, { timeoutMs: 5000, timeout: 120 }, withImages([`${images.url}/slow.png`]));
    expect(performance.now() - started).to.be.below(1000);
    expect((result.data as { problems: { problem: string }[] }).problems[0]!.problem).to.match(/^no answer within 1\d\d ms$/);
  });

  it('skips providers not listed, and requests without images', async () => {
    const skipped = await run(check, { providers: ['vertex-ai'], failOnError: true }, withImages([`${images.url}/gone.png`]));
    expect(skipped.verdict).to.equal(true);
    expect(skipped.data).to.deep.equal({ skipped: true });
    expect((await run(check, { providers: ['openai'], failOnError: true }, withImages([`${images.url}/gone.png`]))).verdict).to.equal(false);
    expect(await run(check, { failOnError: true }, input('no images'))).to.deep.equal({ verdict: true, data: { checked: 0 } });
  });

  it('by default refuses to fetch private addresses (SSRF guard)', async () => {
    const before = images.received.length;
    const result = await run(guarded, { failOnError: true }, withImages([`${images.url}/cat.png`]));
    expect(result.verdict).to.equal(false);
    expect((result.data as { problems: { problem: string }[] }).problems[0]!.problem).to.equal('points into a private network');
    expect(images.received.length).to.equal(before);
  });
});
