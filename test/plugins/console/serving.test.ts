import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { DEFAULT_BUNDLE_DIR } from '../../../plugins/console/web/bundle.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../helpers/gateway.js';

const get = (gw: TestGateway, path: string, headers: Record<string, string> = {}) => fetch(gw.url + path, { headers, redirect: 'manual' });

/** The bytes on the wire (fetch would undo the gzip) and their encoding. */
function bytesOf(url: string, acceptEncoding: string): Promise<{ encoding?: string; length: number }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], length }));
    }).on('error', reject);
  });
}

describe('console.web: serving the console', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(async () => gw?.stop());

  it('redirects /console to /console/', async () => {
    const res = await get(gw, '/console');
    expect(res.status).to.equal(308);
    expect(res.headers.get('location')).to.equal('/console/');
  });

  it('serves the page without a key, with a strict CSP, no-cache and an ETag', async () => {
    const res = await get(gw, '/console/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).to.contain("default-src 'none'").and.contain("script-src 'self'").and.contain("connect-src 'self'").and.contain("frame-ancestors 'none'");
    expect(csp).to.not.contain('unsafe');
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('etag')).to.match(/^"[\w-]{22}"$/);
    const page = await res.text();
    expect(page).to.not.match(/<script>|<style>|\son\w+=/i);
    for (const asset of page.match(/assets\/[\w.-]+/g)!) {
      const one = await get(gw, `/console/${asset}`);
      expect(one.status, asset).to.equal(200);
      expect(one.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(one.headers.get('content-security-policy')).to.equal(csp);
    }
  });

  it('answers 304 for the version the browser has', async () => {
    const etag = (await get(gw, '/console/')).headers.get('etag')!;
    const res = await get(gw, '/console/', { 'if-none-match': etag });
    expect(res.status).to.equal(304);
    expect(await res.text()).to.equal('');
  });

  it('sends gzip to browsers that take it, and plain bytes to others', async () => {
    const script = readdirSync(DEFAULT_BUNDLE_DIR).find((name) => name.endsWith('.js'))!;
    const plain = await bytesOf(`${gw.url}/console/assets/${script}`, 'identity');
    const zipped = await bytesOf(`${gw.url}/console/assets/${script}`, 'gzip, br');
    expect(plain.encoding).to.equal(undefined);
    expect(zipped.encoding).to.equal('gzip');
    expect(zipped.length).to.be.lessThan(plain.length / 2);
  });

  it('answers 404 in the error envelope for an unknown asset or a path that climbs out', async () => {
    for (const path of ['/console/assets/nope.js', '/console/assets/..%2Fbuild.js', '/console/assets/%2e%2e%2findex.html']) {
      const res = await get(gw, path);
      expect(res.status, path).to.equal(404);
      expect((await res.json() as { error: { message: string } }).error.message).to.match(/console asset/);
    }
  });

  it('tells the signed-in caller who they are, and refuses an unknown key', async () => {
    const me = await get(gw, '/v1/console/me', { 'x-gw-api-key': TEST_API_KEY });
    expect(me.status).to.equal(200);
    expect(me.headers.get('cache-control')).to.equal('no-store');
    const body = await me.json() as Record<string, unknown>;
    expect(body).to.include({ object: 'console_session', sign_in: 'api_key', type: 'organisation-owner' });
    expect(body['scopes']).to.be.an('array').that.is.not.empty;
    expect(JSON.stringify(body)).to.not.contain(TEST_API_KEY);
    expect((await get(gw, '/v1/console/me', { 'x-gw-api-key': 'nope' })).status).to.equal(401);
    expect((await get(gw, '/v1/console/me')).status).to.equal(401);
  });
});

describe('console.web: a gateway whose console was not built', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ plugins: [{ use: 'console.web', options: { bundleDir: '/nonexistent/console' } }] });
  });
  after(async () => gw?.stop());

  it('answers 503 naming the build step, and still boots', async () => {
    const res = await get(gw, '/console/');
    expect(res.status).to.equal(503);
    expect((await res.json() as { error: { message: string } }).error.message).to.contain('npm run build');
    expect((await get(gw, '/v1/console/me', { 'x-gw-api-key': TEST_API_KEY })).status).to.equal(200);
  });
});
