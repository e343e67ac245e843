/** The HTTP surface of INTERFACE.md: health, unknown routes, the gateway key, body limits, header hygiene. */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { startMockOpenAI, type MockOpenAI } from '../fixtures/mock-openai.js';
import { CHAT_BODY, directHeaders, postJson, startGateway, TEST_API_KEY, type TestGateway } from '../helpers/gateway.js';

describe('HTTP surface', () => {
  let mock: MockOpenAI;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startGateway({ settings: { bodyLimit: 64 * 1024 } });
  });
  after(async () => {
    await gw.stop();
    await mock.close();
  });
  beforeEach(() => mock.reset());

  it('GET /health answers ok without a key, with each backing store by name', async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).to.equal('ok');
    const recordStore = Object.keys(body.checks).filter((name) => name === 'store.sqlite' || name === 'store.postgres');
    expect(recordStore).to.have.length(1);
    expect(Object.values(body.checks).every((state) => state === 'ok')).to.equal(true);
  });

  it('answers 404 in the envelope for an unknown route and 405 with Allow for a wrong method', async () => {
    let res = await fetch(`${gw.url}/v1/nowhere`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
    expect(res.status).to.equal(404);
    expect(await res.json()).to.deep.equal({
      error: { message: 'no route for GET /v1/nowhere', type: 'not_found_error', param: null, code: 'route_not_found' },
      provider: 'gw',
    });
    res = await fetch(`${gw.url}/v1/chat/completions`, { headers: { 'x-gw-api-key': TEST_API_KEY } });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('POST');
  });

  it('never sends x-powered-by', async () => {
    const res = await fetch(`${gw.url}/health`);
    expect(res.headers.has('x-powered-by')).to.equal(false);
  });

  describe('gateway key', () => {
    it('is required on /v1 routes', async () => {
      const { ['x-gw-api-key']: _omit, ...headers } = directHeaders(mock);
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, headers);
      expect(reply.status).to.equal(401);
      // The provider's bearer without x-gw-api-key is read as a gateway key, and is not one (docs/coding-agents.md).
      expect(reply.json.error.message).to.contain('not a known gateway key').and.contain('x-gw-api-key');
      expect(reply.text).not.to.contain('sk-test');
      const bare = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, { 'content-type': 'application/json' });
      expect(bare.status).to.equal(401);
      expect(bare.json.error.message).to.equal('missing x-gw-api-key, Authorization: Bearer or x-api-key header');
      expect(mock.requests).to.have.length(0);
    });

    it('rejects an unknown key without echoing it', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-api-key': 'gw-not-a-real-key' }));
      expect(reply.status).to.equal(401);
      expect(reply.text).not.to.contain('gw-not-a-real-key');
      expect(reply.headers.get('x-gw-trace-id')).to.be.a('string');
    });

    it('is checked before the body is read (no 400 for a bad body without a key)', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', '{not json', { 'content-type': 'application/json' });
      expect(reply.status).to.equal(401);
    });
  });

  describe('bodies', () => {
    it('answers 400 for invalid JSON, naming the problem', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', '{"model":', directHeaders(mock));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.match(/^body: is not valid JSON/);
    });

    it('answers 400 when the body is not an object', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', '[1,2]', directHeaders(mock));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('body: must be a JSON object');
    });

    it('answers 413 for a body over the limit, by content-length or by counting', async () => {
      const big = JSON.stringify({ ...CHAT_BODY, padding: 'x'.repeat(70 * 1024) });
      const reply = await postJson(gw.url, '/v1/chat/completions', big, directHeaders(mock));
      expect(reply.status).to.equal(413);
      expect(reply.json.error.code).to.equal('payload_too_large');
      // Chunked upload without content-length: the limit is enforced while reading.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: directHeaders(mock) }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        for (let i = 0; i < 80; i++) req.write('x'.repeat(1024));
        req.end();
      });
      expect(status).to.equal(413);
      expect(mock.requests).to.have.length(0);
    });

    it('passes unknown body fields on to the provider', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', { ...CHAT_BODY, vendor_extension: { a: 1 } }, directHeaders(mock));
      expect(reply.status).to.equal(200);
      expect(mock.requests[0]!.body.vendor_extension).to.deep.equal({ a: 1 });
    });

    it('forwards an unchanged body byte for byte', async () => {
      const raw = '{"model":"gpt-4o-mini",  "messages":[{"role":"user","content":"spaced   out"}]}';
      await postJson(gw.url, '/v1/chat/completions', raw, directHeaders(mock));
      expect(mock.requests[0]!.rawBody).to.equal(raw);
    });
  });

  describe('header hygiene', () => {
    it('never passes x-gw-*, the gateway key, x-forwarded-*, forwarded or hop-by-hop headers to the provider', async () => {
      const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, {
        'x-gw-trace-id': 'trace-1',
        'x-gw-metadata': '{"team":"a"}',
        'x-forwarded-for': '10.0.0.1',
        'x-forwarded-proto': 'https',
        forwarded: 'for=10.0.0.1',
        'x-custom-client': 'yes',
        te: 'trailers',
      }));
      expect(reply.status).to.equal(200);
      const received = mock.requests[0]!.headers;
      for (const name of Object.keys(received)) {
        expect(name).not.to.match(/^x-gw-|^x-forwarded-|^forwarded$|^te$|^x-custom-client$/);
      }
      expect(JSON.stringify(received)).not.to.contain(TEST_API_KEY);
      expect(received['authorization']).to.equal('Bearer sk-test');
    });

    it('echoes a given trace id and rejects malformed metadata', async () => {
      let reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-trace-id': 'my-trace' }));
      expect(reply.headers.get('x-gw-trace-id')).to.equal('my-trace');
      reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, directHeaders(mock, { 'x-gw-metadata': '{"n":1}' }));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal('header x-gw-metadata: value of "n" must be a string');
    });
  });
});
