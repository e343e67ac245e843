/**
 * identity.jwt with policy.rate-limits and policy.usage-limits: `group_by: [{key: "jwt.sub"}]` gives
 * each subject its own bucket; `jwt.groups` each set of groups; `jwt.<claim>` any claim.
 */
import { expect } from 'chai';
import RateLimitsPlugin from '../../../../plugins/policies/rate-limits/index.js';
import UsageLimitsPlugin from '../../../../plugins/policies/usage-limits/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { call, type TestGateway } from '../../../helpers/gateway.js';
import { chatAs, providerConfig, putSettings, settingsFor, signingKey, startJwtGateway, startKeyServer, token, type KeyServer, type SigningKey } from './harness.js';

describe('identity.jwt: rate limits grouped by JWT claims', () => {
  let mock: MockOpenAI;
  let keys: KeyServer;
  let rsa: SigningKey;
  let gw: TestGateway;

  before(async () => {
    mock = await startMockOpenAI();
    rsa = await signingKey('rsa-1');
    keys = await startKeyServer([rsa]);
  });
  after(async () => {
    await mock?.close();
    await keys?.close();
  });
  beforeEach(async () => {
    gw = await startJwtGateway({ plugins: [RateLimitsPlugin, UsageLimitsPlugin] });
    expect((await putSettings(gw, settingsFor(keys, { claims: { workspace: 'ws' } }))).status).to.equal(200);
  });
  afterEach(async () => {
    await gw?.stop();
  });

  const policy = (key: string) => ({ conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key }], type: 'requests', unit: 'rph', value: 1 });

  it('jwt.sub: two subjects get separate buckets', async () => {
    const created = await call(gw, 'POST', '/v1/policies/rate-limits', policy('jwt.sub'));
    expect(created.status, created.text).to.equal(200);
    const alice = await token(rsa, { claims: { sub: 'alice', email: 'alice@example.test', ws: 'default' } });
    const bob = await token(rsa, { claims: { sub: 'bob', email: 'bob@example.test', ws: 'default' } });
    expect((await chatAs(gw, alice, providerConfig(mock))).status).to.equal(200);
    const limited = await chatAs(gw, alice, providerConfig(mock));
    expect(limited.status).to.equal(429);
    expect((await chatAs(gw, bob, providerConfig(mock))).status).to.equal(200);
    // A new token of the same subject shares its bucket.
    const aliceAgain = await token(rsa, { claims: { sub: 'alice', email: 'alice@example.test', ws: 'default', jti: 'another' } });
    expect((await chatAs(gw, aliceAgain, providerConfig(mock))).status).to.equal(429);
  });

  it('jwt.groups: the same groups in any order share a bucket, other groups do not', async () => {
    expect((await call(gw, 'POST', '/v1/policies/rate-limits', policy('jwt.groups'))).status).to.equal(200);
    const one = await token(rsa, { claims: { sub: 'a', email: 'a@example.test', ws: 'default', groups: ['eng', 'ops'] } });
    const same = await token(rsa, { claims: { sub: 'b', email: 'b@example.test', ws: 'default', groups: ['ops', 'eng'] } });
    const other = await token(rsa, { claims: { sub: 'c', email: 'c@example.test', ws: 'default', groups: ['sales'] } });
    expect((await chatAs(gw, one, providerConfig(mock))).status).to.equal(200);
    expect((await chatAs(gw, same, providerConfig(mock))).status).to.equal(429);
    expect((await chatAs(gw, other, providerConfig(mock))).status).to.equal(200);
  });

  it('any claim: jwt.<claim> (here a tenant claim)', async () => {
    expect((await call(gw, 'POST', '/v1/policies/rate-limits', policy('jwt.tenant'))).status).to.equal(200);
    const t1 = (sub: string) => token(rsa, { claims: { sub, email: `${sub}@example.test`, ws: 'default', tenant: 't1' } });
    expect((await chatAs(gw, await t1('x'), providerConfig(mock))).status).to.equal(200);
    expect((await chatAs(gw, await t1('y'), providerConfig(mock))).status).to.equal(429);
  });

  it('usage limits too: a token budget per jwt.sub', async () => {
    const created = await call(gw, 'POST', '/v1/policies/usage-limits', {
      conditions: [{ key: 'endpoint_type', value: 'chatComplete' }], group_by: [{ key: 'jwt.sub' }], type: 'tokens', credit_limit: 1,
    });
    expect(created.status, created.text).to.equal(200);
    const alice = await token(rsa, { claims: { sub: 'alice', email: 'alice@example.test', ws: 'default' } });
    const bob = await token(rsa, { claims: { sub: 'bob', email: 'bob@example.test', ws: 'default' } });
    expect((await chatAs(gw, alice, providerConfig(mock))).status).to.equal(200);
    // Usage is counted once the answer is out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await chatAs(gw, alice, providerConfig(mock))).status).to.equal(429);
    expect((await chatAs(gw, bob, providerConfig(mock))).status).to.equal(200);
  });
});
