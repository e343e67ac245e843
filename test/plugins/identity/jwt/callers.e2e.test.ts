/**
 * identity.jwt: the identity rule on inference routes. Without x-gw-api-key the caller is named by
 * `Authorization: Bearer` (or x-api-key): an accepted JWT or a gateway key, and that header never
 * reaches the provider; with x-gw-api-key, Authorization stays the provider's key. A mock OpenAI
 * provider shows what reaches upstream.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import IntegrationsPlugin from '../../../../plugins/admin/integrations/index.js';
import SecretBoxPlugin from '../../../../plugins/security/secret-box/index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { call, CHAT_BODY, postJson, TEST_API_KEY, type TestGateway } from '../../../helpers/gateway.js';
import {
  callAs, chatAs, providerConfig, putSettings, SETTINGS_PATH, settingsFor, signingKey, startJwtGateway, startKeyServer, token,
  type KeyServer, type SigningKey,
} from './harness.js';

describe('identity.jwt: JWT callers on the data plane', () => {
  let mock: MockOpenAI;
  let keys: KeyServer;
  let rsa: SigningKey;
  let gw: TestGateway;
  let defaultWorkspace: { id: string; slug: string };

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
    mock.reset();
    gw = await startJwtGateway({ plugins: [SecretBoxPlugin, IntegrationsPlugin], env: { GW_SECRET_KEY: randomBytes(32).toString('base64') } });
    const put = await putSettings(gw, settingsFor(keys, { claims: { workspace: 'ws' } }));
    expect(put.status, put.text).to.equal(200);
    defaultWorkspace = (await call(gw, 'GET', '/v1/workspaces/default')).json;
  });
  afterEach(async () => {
    await gw?.stop();
  });

  const upstreamAuthorization = () => mock.requests.map((r) => r.headers['authorization']);

  it('serves a JWT caller with the config\'s provider key; the JWT never reaches the provider', async () => {
    const jwt = await token(rsa, { claims: { ws: 'default' } });
    const reply = await chatAs(gw, jwt, providerConfig(mock));
    expect(reply.status, reply.text).to.equal(200);
    expect(reply.json.object).to.equal('chat.completion');
    expect(upstreamAuthorization()).to.deep.equal(['Bearer sk-from-config']);
    expect(JSON.stringify(mock.requests[0]!.headers)).not.to.contain(jwt);
  });

  it('takes the caller\'s JWT from x-api-key too, and never forwards it (not even through forward_headers)', async () => {
    const jwt = await token(rsa, { claims: { ws: 'default' } });
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json', 'x-api-key': jwt,
        'x-gw-config': JSON.stringify({ ...providerConfig(mock), forward_headers: ['x-api-key'] }),
      },
      body: JSON.stringify(CHAT_BODY),
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(mock.requests[0]!.headers['x-api-key']).to.equal(undefined);
    expect(upstreamAuthorization()).to.deep.equal(['Bearer sk-from-config']);
  });

  it('does not take a JWT caller\'s bearer as the direct-mode provider key: the provider gets no credential', async () => {
    const jwt = await token(rsa, { claims: { ws: 'default' } });
    const reply = await chatAs(gw, jwt, undefined, { 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` });
    // A custom host needs no key, so the call is made, without one: the mock answers its own 401.
    expect(reply.status, reply.text).to.equal(401);
    expect(reply.json.provider).to.equal('openai');
    expect(mock.requests).to.have.length(1);
    expect(mock.requests[0]!.headers['authorization']).to.equal(undefined);
    expect(JSON.stringify(mock.requests[0]!.headers)).not.to.contain(jwt);
  });

  it('serves a JWT caller through an integration (x-gw-provider: @slug) with the integration\'s key', async () => {
    const made = await call(gw, 'POST', '/v1/integrations', { slug: 'mock', provider: 'openai', key: 'sk-from-integration', configurations: { custom_host: `${mock.url}/v1` } });
    expect(made.status, made.text).to.equal(200);
    const jwt = await token(rsa, { claims: { ws: 'default' } });
    const reply = await chatAs(gw, jwt, undefined, { 'x-gw-provider': '@mock' });
    expect(reply.status, reply.text).to.equal(200);
    expect(upstreamAuthorization()).to.deep.equal(['Bearer sk-from-integration']);
  });

  it('accepts a gateway key as the bearer (no x-gw-api-key), and does not forward it either', async () => {
    const reply = await chatAs(gw, TEST_API_KEY, providerConfig(mock));
    expect(reply.status, reply.text).to.equal(200);
    expect(upstreamAuthorization()).to.deep.equal(['Bearer sk-from-config']);
  });

  it('with x-gw-api-key, Authorization stays the provider key (direct mode as before)', async () => {
    const jwtShaped = await token(rsa);
    const reply = await postJson(gw.url, '/v1/chat/completions', CHAT_BODY, {
      'content-type': 'application/json', 'x-gw-api-key': TEST_API_KEY, 'x-gw-provider': 'openai',
      'x-gw-custom-host': `${mock.url}/v1`, authorization: `Bearer ${jwtShaped}`,
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(upstreamAuthorization()).to.deep.equal([`Bearer ${jwtShaped}`]);
  });

  it('an unknown bearer that is not a JWT is left to the key check: 401 asking for x-gw-api-key', async () => {
    const reply = await chatAs(gw, 'sk-provider-key-without-gateway-key', providerConfig(mock));
    expect(reply.status).to.equal(401);
    // On an inference route the key check reads the bearer as a gateway key (docs/coding-agents.md).
    expect(reply.json.error.message).to.contain('not a known gateway key').and.contain('x-gw-api-key');
    expect(reply.text).not.to.contain('sk-provider-key');
    expect(mock.requests).to.have.length(0);
  });

  describe('people', () => {
    it('creates the person on first use as an organisation member, once', async () => {
      const jwt = await token(rsa, { claims: { sub: 'okta|42', email: 'Grace@Example.test', name: 'Grace H', ws: 'default' } });
      expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
      expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
      const users = await call(gw, 'GET', '/v1/users?email=grace@example.test');
      expect(users.json.data).to.have.length(1);
      expect(users.json.data[0]).to.include({ email: 'grace@example.test', name: 'Grace H', role: 'member' });
    });

    it('acts as a member of the workspace the token names (joining it), with a member\'s rights', async () => {
      const jwt = await token(rsa, { claims: { email: 'lin@example.test', ws: defaultWorkspace.slug } });
      expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
      const user = (await call(gw, 'GET', '/v1/users?email=lin@example.test')).json.data[0];
      const member = await call(gw, 'GET', `/v1/workspaces/${defaultWorkspace.id}/members`);
      expect(member.json.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role])).to.deep.include([user.id, 'member']);
      // A member is no organisation admin: the organisation's JWT settings are refused.
      const settings = await callAs(gw, jwt, 'GET', SETTINGS_PATH);
      expect(settings.status).to.equal(403);
    });

    it('a person the organisation made an admin acts organisation-wide', async () => {
      const made = await call(gw, 'POST', '/v1/users', { email: 'boss@example.test', role: 'admin' });
      expect(made.status, made.text).to.equal(200);
      const jwt = await token(rsa, { claims: { email: 'boss@example.test' } });
      const settings = await callAs(gw, jwt, 'GET', SETTINGS_PATH);
      expect(settings.status, settings.text).to.equal(200);
      expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
    });

    it('x-gw-workspace picks one of the person\'s workspaces; another one is a 403 naming the header', async () => {
      const other = await call(gw, 'POST', '/v1/workspaces', { name: 'Team B', slug: 'team-b' });
      expect(other.status, other.text).to.equal(200);
      const jwt = await token(rsa, { claims: { email: 'kay@example.test', ws: 'default' } });
      expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
      expect((await chatAs(gw, jwt, providerConfig(mock), { 'x-gw-workspace': 'default' })).status).to.equal(200);
      const refused = await chatAs(gw, jwt, providerConfig(mock), { 'x-gw-workspace': 'team-b' });
      expect(refused.status).to.equal(403);
      expect(refused.json.error.message).to.match(/^header x-gw-workspace: \S+@\S+ is not a member of workspace "team-b"$/);
    });

    it('a person in no workspace, with no workspace claim, is refused (403 naming the way in)', async () => {
      const jwt = await token(rsa, { claims: { email: 'new@example.test' } });
      const reply = await chatAs(gw, jwt, providerConfig(mock));
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.contain('is a member of no workspace');
      expect(mock.requests).to.have.length(0);
    });

    it('a person whose only workspace was archived is refused (403 naming it), as a signed-in person is', async () => {
      const solo = await call(gw, 'POST', '/v1/workspaces', { name: 'Solo', slug: 'solo' });
      const person = await call(gw, 'POST', '/v1/users', { email: 'solo@example.test' });
      expect((await call(gw, 'POST', `/v1/workspaces/${solo.json.id}/members`, { user_id: person.json.id, role: 'member' })).status).to.equal(200);
      expect((await call(gw, 'DELETE', `/v1/workspaces/${solo.json.id}`)).status).to.equal(200);
      const reply = await chatAs(gw, await token(rsa, { claims: { email: 'solo@example.test' } }), providerConfig(mock));
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.equal(`workspace ${solo.json.id} is archived`);
      expect(mock.requests).to.have.length(0);
    });

    it('a workspace claim naming no workspace is refused (403)', async () => {
      const jwt = await token(rsa, { claims: { ws: 'nowhere' } });
      const reply = await chatAs(gw, jwt, providerConfig(mock));
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.equal('the token\'s workspace claim names no workspace of the organisation ("nowhere")');
    });
  });

  it('DELETE of the settings turns JWT callers off (401)', async () => {
    const jwt = await token(rsa, { claims: { ws: 'default' } });
    expect((await chatAs(gw, jwt, providerConfig(mock))).status).to.equal(200);
    expect((await call(gw, 'DELETE', SETTINGS_PATH)).status).to.equal(200);
    const reply = await chatAs(gw, jwt, providerConfig(mock));
    expect(reply.status).to.equal(401);
    expect(reply.json.error.message).to.equal('bearer JWT refused: unexpected issuer (iss): no organisation accepts tokens from it');
  });
});
