/**
 * identity.jwt with identity.scim: the token of a person the identity provider deactivated (SCIM
 * PATCH active: false) is refused with 401 person_deactivated, also when it names a workspace the
 * person would otherwise join; reactivated (active: true), they call again. A deactivation shows
 * within personCacheTtlMs at most.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import ApiKeysPlugin from '../../../../plugins/admin/api-keys/index.js';
import ScimPlugin from '../../../../plugins/identity/scim/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import { createKey, oktaUser, provision, SCIM, scimClient, type ScimClient } from '../scim/helpers.js';
import {
  chatAs, providerConfig, putSettings, settingsFor, signingKey, startJwtGateway, startKeyServer, token,
  type KeyServer, type SigningKey,
} from './harness.js';

describe('identity.jwt: people deactivated by SCIM', () => {
  let mock: MockOpenAI;
  let keys: KeyServer;
  let rsa: SigningKey;
  let gw: TestGateway | undefined;
  let idp: ScimClient;

  before(async () => {
    mock = await startMockOpenAI();
    rsa = await signingKey('rsa-1');
    keys = await startKeyServer([rsa]);
  });
  after(async () => {
    await mock?.close();
    await keys?.close();
  });
  afterEach(async () => {
    await gw?.stop();
    gw = undefined;
  });

  const start = async (personCacheTtlMs: number) => {
    gw = await startJwtGateway({
      jwt: { personCacheTtlMs },
      plugins: [SecretBoxPlugin, ApiKeysPlugin, ScimPlugin],
      env: { GW_SECRET_KEY: randomBytes(32).toString('base64') },
    });
    const put = await putSettings(gw, settingsFor(keys, { claims: { workspace: 'ws' } }));
    expect(put.status, put.text).to.equal(200);
    const scimKey = await createKey(scimClient(gw.url, { 'x-gw-api-key': TEST_API_KEY }), { name: 'okta', type: 'organisation-service', scopes: ['scim.*'] });
    idp = scimClient(gw.url, { authorization: `Bearer ${scimKey}` });
    return gw;
  };
  const setActive = async (id: string, active: boolean) => {
    const reply = await idp.patch(`${SCIM}/Users/${id}`, [{ op: 'replace', path: 'active', value: active }]);
    expect(reply.status, reply.text).to.equal(200);
  };

  it('refuses a deactivated person\'s token with 401 person_deactivated (no rejoining by the workspace claim); reactivated, they call again', async () => {
    const gw = await start(0);
    const id = await provision(idp, oktaUser('ada@example.test'));
    const jwt = await token(rsa, { claims: { email: 'ada@example.test', ws: 'default' } });
    expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);

    await setActive(id, false);
    const refused = await chatAs(gw, jwt, providerConfig(mock));
    expect(refused.status).to.equal(401);
    expect(refused.json.error).to.include({ code: 'person_deactivated' });
    expect(refused.json.error.message).to.contain('ada@example.test');
    expect(refused.text).not.to.contain(jwt.split('.')[2]);
    const members = await scimClient(gw.url, { 'x-gw-api-key': TEST_API_KEY }).get('/v1/workspaces/default/members');
    expect(members.json.data.map((m: { user_id: string }) => m.user_id)).not.to.include(id);

    await setActive(id, true);
    const again = await chatAs(gw, jwt, providerConfig(mock));
    expect(again.status, again.text).to.equal(200);
  });

  it('with the person cache on, a deactivation shows once personCacheTtlMs has passed', async () => {
    const ttlMs = 300;
    const gw = await start(ttlMs);
    const id = await provision(idp, oktaUser('bea@example.test'));
    const jwt = await token(rsa, { claims: { email: 'bea@example.test', ws: 'default' } });
    expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
    await setActive(id, false);
    await new Promise((resolve) => setTimeout(resolve, ttlMs + 50));
    const refused = await chatAs(gw, jwt, providerConfig(mock));
    expect(refused.status).to.equal(401);
    expect(refused.json.error.code).to.equal('person_deactivated');
  });
});
