import { expect } from 'chai';
import { isPrivateAddress, type Runtime } from '../../../core/index.js';
import ValidUrlsGuardrail from '../../../guardrails/valid-urls/index.js';
import type { ValidUrlsParams } from '../../../guardrails/valid-urls/params.js';
import { urlsIn } from '../../../guardrails/valid-urls/urls.js';
import { loadCheck, output, run, validateParams, type TestableCheck } from '../helpers.js';
import { startServer, type LocalServer } from '../local-server.js';

describe('guardrail default.validUrls', () => {
  let check: TestableCheck<ValidUrlsParams>;
  let guarded: TestableCheck<ValidUrlsParams>;
  const runtimes: Runtime[] = [];
  let site: LocalServer;
  before(async () => {
    // Tests fetch a loopback server, so this instance allows private addresses; `guarded` keeps the default.
    const open = await loadCheck<ValidUrlsParams>(ValidUrlsGuardrail, 'default.validUrls', { options: { allowPrivateNetwork: true } });
    const closed = await loadCheck<ValidUrlsParams>(ValidUrlsGuardrail, 'default.validUrls');
    check = open.check;
    guarded = closed.check;
    runtimes.push(open.runtime, closed.runtime);
    site = await startServer((req, res) => {
      if (req.path.startsWith('/slow')) return;
      res.writeHead(req.path.startsWith('/missing') ? 404 : 200).end('ok');
    });
  });
  after(async () => {
    await site.close();
    for (const r of runtimes) await r.close();
  });

  it('validates params', () => {
    expect(validateParams(check, {}).value).to.deep.equal({ onlyDNS: false, timeout: 3000, not: false });
    expect(validateParams(check, { onlyDNS: 'yes' }).ok).to.equal(false);
  });

  it('extracts distinct http(s) URLs without trailing punctuation', () => {
    expect(urlsIn('See https://a.test/x, and http://b.test. Also (https://a.test/x) and ftp://c.test')).to.deep.equal(['https://a.test/x', 'http://b.test']);
    expect(urlsIn('')).to.deep.equal([]);
  });

  it('passes when every URL answers below 400, fails on a 404 naming it', async () => {
    expect(await run(check, {}, output(`Docs: ${site.url}/docs and ${site.url}/api.`))).to.deep.equal({
      verdict: true, data: { validUrls: [`${site.url}/docs`, `${site.url}/api`], invalidUrls: [], unchecked: 0 },
    });
    const result = await run(check, {}, output(`Docs: ${site.url}/docs and ${site.url}/missing`));
    expect(result.verdict).to.equal(false);
    expect(result.data).to.deep.equal({
      validUrls: [`${site.url}/docs`], invalidUrls: [{ url: `${site.url}/missing`, reason: 'answered HTTP 404' }], unchecked: 0, explanation: '1 invalid URL(s)',
    });
  });

  it('times out slow URLs and reports unreachable ones', async () => {
    const result = await run(check, { timeout: 50 }, output(`${site.url}/slow http://127.0.0.1:1/`));
    expect(result.verdict).to.equal(false);
    const reasons = (result.data as { invalidUrls: { reason: string }[] }).invalidUrls.map((u) => u.reason);
    expect(reasons[0]).to.equal('no answer within 50 ms');
    expect(reasons[1]).to.match(/^unreachable/);
  });

  it('onlyDNS resolves host names without requesting anything', async () => {
    const before = site.received.length;
    expect((await run(check, { onlyDNS: true }, output('http://localhost:1/never-fetched'))).verdict).to.equal(true);
    const bad = await run(check, { onlyDNS: true }, output('https://no-such-host.invalid/x'));
    expect(bad.verdict).to.equal(false);
    expect(site.received.length).to.equal(before);
  });

  it('no URL passes; not inverts', async () => {
    expect(await run(check, {}, output('plain text'))).to.deep.equal({ verdict: true, data: null });
    expect((await run(check, { not: true }, output(`${site.url}/missing`))).verdict).to.equal(true);
  });

  it('by default refuses to fetch private addresses (SSRF guard)', async () => {
    const before = site.received.length;
    const result = await run(guarded, {}, output(`${site.url}/docs http://169.254.169.254/latest/meta-data`));
    expect(result.verdict).to.equal(false);
    expect((result.data as { invalidUrls: { reason: string }[] }).invalidUrls.map((u) => u.reason)).to.deep.equal(['points into a private network', 'points into a private network']);
    expect(site.received.length).to.equal(before);
    expect(isPrivateAddress('10.1.2.3')).to.equal(true);
    expect(isPrivateAddress('172.20.0.1')).to.equal(true);
    expect(isPrivateAddress('::ffff:192.168.1.1')).to.equal(true);
    expect(isPrivateAddress('fd00::1')).to.equal(true);
    expect(isPrivateAddress('93.184.216.34')).to.equal(false);
    expect(isPrivateAddress('2606:4700::1111')).to.equal(false);
  });
});
