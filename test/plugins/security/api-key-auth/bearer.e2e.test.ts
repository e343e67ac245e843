/**
 * auth.api-key: routes that declare `bearerKey` take the gateway key as `Authorization: Bearer`
 * (MCP clients send that) and lose the header once it named the caller; other routes do not.
 */
import { expect } from 'chai';
import { definePlugin, JsonPayload } from '../../../../core/index.js';
import { startGateway, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';

/** Two routes that answer the caller's key id and whether an Authorization header reached them. */
const Routes = definePlugin({
  id: 'test.bearer-routes',
  apply(api) {
    for (const [path, bearerKey] of [['/v1/test/bearer', true], ['/v1/test/plain', false]] as const) {
      api.registries.routes.add({
        method: 'GET', path, bearerKey, body: 'none',
        handler: async (ctx) => ({
          status: 200, headers: { 'content-type': 'application/json' },
          json: JsonPayload.of({ key: ctx.principal?.keyId ?? null, authorization: ctx.request.headers['authorization'] ?? null }),
        }),
      });
    }
  },
});

describe('auth.api-key: the gateway key as a bearer on routes that declare it', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startGateway({ composition: { preset: 'none', plugins: ['store.sqlite', 'auth.api-key', Routes] } });
  });
  after(async () => {
    await gw?.stop();
  });

  const get = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(gw.url + path, { headers });
    return { status: res.status, text: await res.text() };
  };

  it('accepts Authorization: Bearer <gateway key> and takes the header off the request', async () => {
    const reply = await get('/v1/test/bearer', { authorization: `Bearer ${TEST_API_KEY}` });
    expect(reply.status, reply.text).to.equal(200);
    const body = JSON.parse(reply.text);
    expect(body.key).to.be.a('string');
    expect(body.authorization).to.equal(null);
  });

  it('keeps x-gw-api-key first: an Authorization header beside it stays (it is not the gateway key)', async () => {
    const reply = await get('/v1/test/bearer', { 'x-gw-api-key': TEST_API_KEY, authorization: 'Bearer provider-key' });
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.text).authorization).to.equal('Bearer provider-key');
  });

  it('refuses an unknown bearer without echoing it, and a missing key naming both headers', async () => {
    const wrong = await get('/v1/test/bearer', { authorization: 'Bearer gw-not-a-key-123' });
    expect(wrong.status).to.equal(401);
    expect(wrong.text).to.not.contain('gw-not-a-key-123');
    const none = await get('/v1/test/bearer', {});
    expect(none.status).to.equal(401);
    expect(JSON.parse(none.text).error.message).to.contain('x-gw-api-key').and.contain('Authorization: Bearer');
  });

  it('does not take a bearer on routes that do not declare it', async () => {
    const reply = await get('/v1/test/plain', { authorization: `Bearer ${TEST_API_KEY}` });
    expect(reply.status).to.equal(401);
    expect(JSON.parse(reply.text).error.message).to.equal('missing x-gw-api-key header');
  });
});
