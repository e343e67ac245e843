/**
 * identity.jwt: every token the gateway refuses, each a 401 naming why, never echoing the token,
 * and nothing sent to the provider.
 */
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import {
  AUDIENCE, chatAs, ISSUER, providerConfig, putSettings, settingsFor, signingKey, startJwtGateway, startKeyServer, token, unsignedToken,
  type KeyServer, type SigningKey,
} from './harness.js';

describe('identity.jwt: refused tokens', () => {
  let mock: MockOpenAI;
  let keys: KeyServer;
  let rsa: SigningKey;
  let ec: SigningKey;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    rsa = await signingKey('rsa-1');
    ec = await signingKey('ec-1', 'ES384');
    keys = await startKeyServer([rsa, ec]);
    gw = await startJwtGateway();
    const put = await putSettings(gw, settingsFor(keys, { algorithms: ['RS256', 'ES256'], claims: { workspace: 'ws' } }));
    expect(put.status, put.text).to.equal(200);
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
    await keys?.close();
  });
  beforeEach(() => mock.reset());

  async function expectRefused(jwt: string, why: string, status = 401): Promise<void> {
    const reply = await chatAs(gw, jwt, providerConfig(mock));
    expect(reply.status, reply.text).to.equal(status);
    expect(reply.json.error.message).to.equal(why);
    expect(reply.text).not.to.contain(jwt.split('.')[2] || jwt);
    expect(mock.requests).to.have.length(0);
  }

  it('accepts a good token (the baseline of every refusal below)', async () => {
    const reply = await chatAs(gw, await token(rsa, { claims: { ws: 'default' } }), providerConfig(mock));
    expect(reply.status, reply.text).to.equal(200);
  });

  it('an expired token', async () => {
    await expectRefused(await token(rsa, { expiresIn: Math.floor(Date.now() / 1000) - 120 }), 'bearer JWT refused: the token has expired (exp)');
  });

  it('a token expired 30 s ago is still accepted (60 s clock tolerance); 120 s ago is not (above)', async () => {
    const withinSkew = await token(rsa, { claims: { ws: 'default' }, expiresIn: Math.floor(Date.now() / 1000) - 30 });
    expect((await chatAs(gw, withinSkew, providerConfig(mock))).status).to.equal(200);
  });

  it('a token without exp', async () => {
    await expectRefused(await token(rsa, { without: ['exp'] }), 'bearer JWT refused: the token has no exp claim');
  });

  it('a token not valid yet', async () => {
    await expectRefused(await token(rsa, { notBefore: Math.floor(Date.now() / 1000) + 600 }), 'bearer JWT refused: the token is not valid yet (nbf)');
  });

  it('another audience', async () => {
    await expectRefused(await token(rsa, { claims: { aud: 'someone-else' } }), 'bearer JWT refused: unexpected audience (aud)');
  });

  it('another issuer', async () => {
    await expectRefused(await token(rsa, { claims: { iss: 'https://evil.example.test' } }), 'bearer JWT refused: unexpected issuer (iss): no organisation accepts tokens from it');
  });

  it('a key id the key set does not have', async () => {
    const stranger = await signingKey('not-in-the-set');
    await expectRefused(await token(stranger), 'bearer JWT refused: no key of the organisation\'s key set matches the token (kid)');
  });

  it('a forged signature (another key claiming a known kid)', async () => {
    const forger = await signingKey('rsa-1');
    await expectRefused(await token(forger), 'bearer JWT refused: the signature does not verify');
  });

  it('an algorithm the organisation does not allow (ES384 with RS256/ES256 allowed)', async () => {
    await expectRefused(await token(ec), 'bearer JWT refused: the algorithm (alg) is not allowed for this organisation');
  });

  it('a shared-secret token (HS256)', async () => {
    const hs = await new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'x', email: 'x@example.test' })
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' }).setExpirationTime('5m').sign(new TextEncoder().encode('a'.repeat(32)));
    await expectRefused(hs, 'bearer JWT refused: the algorithm (alg) is not allowed for this organisation');
  });

  it('an unsigned token (alg none)', async () => {
    await expectRefused(unsignedToken({ sub: 'x', email: 'x@example.test' }), 'bearer JWT refused: the algorithm (alg) is not allowed for this organisation');
  });

  it('a token that is not well formed', async () => {
    await expectRefused('eyJub3QiOiJqc29uIn0.bm90IGpzb24.c2ln', 'bearer JWT refused: the token is not a well-formed JWT');
  });

  it('a token without the subject or email the organisation maps', async () => {
    await expectRefused(await token(rsa, { without: ['sub'] }), 'bearer JWT refused: claim "sub" must be a non-empty string (the subject)');
    await expectRefused(await token(rsa, { without: ['email'] }), 'bearer JWT refused: claim "email" must be an email address (the person)');
  });

  it('a key set that cannot be fetched is the gateway\'s problem (503), not the caller\'s', async () => {
    const other = await startJwtGateway();
    try {
      const down = await startKeyServer([rsa]);
      await down.close();
      expect((await putSettings(other, settingsFor(down))).status).to.equal(200);
      const reply = await chatAs(other, await token(rsa), providerConfig(mock));
      expect(reply.status, reply.text).to.equal(503);
      expect(reply.json.error.code).to.equal('jwks_unavailable');
      expect(reply.json.error.message).to.match(/^the organisation's key set \(jwks_uri\) could not be fetched/);
    } finally {
      await other.stop();
    }
  });
});
