/**
 * Header hygiene end to end: whatever the client sends and whatever forward_headers names, the
 * provider never sees gateway headers, the gateway key, proxy headers or hop-by-hop headers.
 * Requests go out through node:http so that headers fetch refuses to send (connection, te,
 * keep-alive ...) really reach the gateway.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import ForwardHeadersPlugin from '../../../../plugins/routing/forward-headers/index.js';
import { CHAT_BODY, startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { startMockOpenAI, type MockOpenAI, type RecordedRequest } from '../../../fixtures/mock-openai.js';

interface RawReply { status: number; text: string }

/** One POST on its own socket, with exactly the headers given. */
function rawPost(base: string, path: string, body: unknown, headers: Record<string, string>): Promise<RawReply> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** What a hostile or careless client sends besides the gateway's own headers. */
const NOISE: Readonly<Record<string, string>> = {
  'x-gw-trace-id': 'trace-1',
  'x-gw-span-id': 'span-1',
  'x-gw-metadata': '{"team":"a"}',
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-proto': 'https',
  forwarded: 'for=203.0.113.9;proto=https',
  connection: 'keep-alive, x-foo',
  'x-foo': 'hop-by-hop for this request',
  'keep-alive': 'timeout=5',
  te: 'trailers',
  'proxy-authorization': 'Basic c2VjcmV0',
  authorization: 'Bearer sk-client-should-not-win',
  'x-custom': 'custom-value',
};

function expectClean(rec: RecordedRequest): void {
  const names = Object.keys(rec.headers);
  expect(names.filter((n) => n.startsWith('x-gw-')), 'x-gw-* headers').to.deep.equal([]);
  expect(names.filter((n) => n.startsWith('x-forwarded-') || n === 'forwarded'), 'proxy headers').to.deep.equal([]);
  expect(rec.headers, 'hop-by-hop headers').to.not.have.any.keys('te', 'keep-alive', 'proxy-authorization', 'x-foo', 'trailer', 'upgrade');
  // The transport's own connection header is allowed; the client's is not.
  expect(String(rec.headers['connection'] ?? '')).to.not.include('x-foo');
  for (const value of Object.values(rec.headers)) {
    expect(String(value), 'the gateway key in a header value').to.not.include(TEST_API_KEY);
  }
  expect(rec.headers['authorization']).to.equal('Bearer sk-config');
}

describe('header hygiene (end to end)', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const config = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ provider: 'openai', api_key: 'sk-config', custom_host: `${mock.url}/v1`, ...extra });
  const send = (configJson: string, extra: Record<string, string> = {}) =>
    rawPost(gw.url, '/v1/chat/completions', CHAT_BODY, { 'x-gw-api-key': TEST_API_KEY, 'x-gw-config': configJson, ...NOISE, ...extra });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ plugins: [ForwardHeadersPlugin] });
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  it('the client really sends every noisy header (control: straight to the mock)', async () => {
    const res = await rawPost(mock.url, '/v1/chat/completions', CHAT_BODY, { ...NOISE, 'x-gw-api-key': TEST_API_KEY });
    expect(res.status).to.equal(200);
    const headers = mock.requests[0]!.headers;
    expect(headers).to.include({ te: 'trailers', 'x-foo': 'hop-by-hop for this request', connection: 'keep-alive, x-foo', 'x-gw-api-key': TEST_API_KEY });
  });

  it('without forward_headers: no client header reaches the provider', async () => {
    const res = await send(config());
    expect(res.status, res.text).to.equal(200);
    expectClean(mock.requests[0]!);
    expect(mock.requests[0]!.headers).to.not.have.property('x-custom');
  });

  it('with forward_headers naming the custom header: only it is added', async () => {
    const res = await send(config({ forward_headers: ['X-Custom', 'x-foo'] }));
    expect(res.status, res.text).to.equal(200);
    expectClean(mock.requests[0]!);
    expect(mock.requests[0]!.headers['x-custom']).to.equal('custom-value');
  });

  it('a header the client\'s Connection lists is dropped even when named', async () => {
    const res = await send(config({ forward_headers: ['x-foo'] }));
    expect(res.status, res.text).to.equal(200);
    expect(mock.requests[0]!.headers).to.not.have.property('x-foo');
    // Without the Connection listing, the same header is an ordinary end-to-end header.
    await send(config({ forward_headers: ['x-foo'] }), { connection: 'keep-alive' });
    expect(mock.requests[1]!.headers['x-foo']).to.equal('hop-by-hop for this request');
  });

  it('in direct mode the same rules hold', async () => {
    const direct = {
      'x-gw-provider': 'openai',
      'x-gw-custom-host': `${mock.url}/v1`,
      'x-gw-api-key': TEST_API_KEY,
      ...NOISE,
      authorization: 'Bearer sk-config',
      'x-gw-forward-headers': 'x-custom',
    };
    const res = await rawPost(gw.url, '/v1/chat/completions', CHAT_BODY, direct);
    expect(res.status, res.text).to.equal(200);
    expectClean(mock.requests[0]!);
    expect(mock.requests[0]!.headers['x-custom']).to.equal('custom-value');
  });

  for (const name of ['x-gw-trace-id', 'x-gw-api-key', 'X-Forwarded-For', 'forwarded', 'connection', 'te', 'keep-alive', 'proxy-authorization', 'authorization']) {
    it(`naming "${name}" in forward_headers is a 400 and nothing reaches the provider`, async () => {
      const res = await send(config({ forward_headers: ['x-custom', name] }));
      expect(res.status).to.equal(400);
      expect(JSON.parse(res.text).error).to.include({ param: 'forward_headers.1', code: 'invalid_config' });
      expect(mock.requests).to.have.length(0);
    });
  }
});
