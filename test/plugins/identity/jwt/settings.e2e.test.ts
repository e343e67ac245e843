/** identity.jwt: the organisation's JWT settings at /v1/organisation/sso/jwt (PUT, GET, DELETE) and their rules. */
import { expect } from 'chai';
import { call, type TestGateway } from '../../../helpers/gateway.js';
import {
  AUDIENCE, ISSUER, putSettings, SETTINGS_PATH, settingsFor, signingKey, startJwtGateway, startKeyServer, type KeyServer,
} from './harness.js';

describe('identity.jwt: settings routes', () => {
  let gw: TestGateway;
  let keys: KeyServer;

  before(async () => {
    keys = await startKeyServer([await signingKey('k1')]);
  });
  after(async () => {
    await keys?.close();
  });
  beforeEach(async () => {
    gw = await startJwtGateway();
  });
  afterEach(async () => {
    await gw?.stop();
  });

  it('is off until PUT: GET and DELETE answer 404', async () => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await call(gw, method, SETTINGS_PATH);
      expect(reply.status, method).to.equal(404);
      expect(reply.json.error.code).to.equal('jwt_not_configured');
    }
  });

  it('PUT stores the settings with defaults; GET shows them; a second PUT replaces them; DELETE turns them off', async () => {
    const put = await putSettings(gw, settingsFor(keys));
    expect(put.status, put.text).to.equal(200);
    expect(put.json).to.include({ object: 'organisation.sso.jwt', issuer: ISSUER, audience: AUDIENCE, jwks_uri: keys.jwksUri });
    expect(put.json.algorithms).to.deep.equal(['RS256', 'ES256', 'EdDSA']);
    expect(put.json.claims).to.deep.equal({ subject: 'sub', email: 'email', workspace: null, groups: 'groups' });
    expect(put.headers.get('cache-control')).to.equal('no-store');

    const got = await call(gw, 'GET', SETTINGS_PATH);
    expect(got.status).to.equal(200);
    expect(got.json).to.deep.equal(put.json);

    const replaced = await putSettings(gw, settingsFor(keys, {
      audience: ['a', 'b'], algorithms: ['ES256'], claims: { subject: 'oid', workspace: 'ws', groups: 'roles' },
    }));
    expect(replaced.status, replaced.text).to.equal(200);
    expect(replaced.json.audience).to.deep.equal(['a', 'b']);
    expect(replaced.json.algorithms).to.deep.equal(['ES256']);
    expect(replaced.json.claims).to.deep.equal({ subject: 'oid', email: 'email', workspace: 'ws', groups: 'roles' });
    expect(replaced.json.created_at).to.equal(put.json.created_at);

    const deleted = await call(gw, 'DELETE', SETTINGS_PATH);
    expect(deleted.status).to.equal(200);
    expect(deleted.json.deleted).to.equal(true);
    expect((await call(gw, 'GET', SETTINGS_PATH)).status).to.equal(404);
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['a missing issuer', { issuer: undefined }, 'body.issuer'],
    ['an empty audience list', { audience: [] }, 'body.audience: must be a non-empty string or a list of 1 to 20 non-empty strings'],
    ['a symmetric algorithm', { algorithms: ['HS256'] }, 'body.algorithms.0: must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA (asymmetric algorithms only)'],
    ['alg none', { algorithms: ['none'] }, 'body.algorithms.0: must be one of'],
    ['a repeated algorithm', { algorithms: ['RS256', 'RS256'] }, 'body.algorithms'],
    ['an unknown claim mapping', { claims: { tenant: 'tid' } }, 'body.claims'],
    ['a claim name with spaces', { claims: { subject: 'my sub' } }, 'body.claims.subject: must be a claim name'],
    ['an unknown field', { client_secret: 'x' }, 'body'],
    ['a jwks_uri that is not a URL', { jwks_uri: 'keys.json' }, 'body.jwks_uri: must be an absolute URL'],
    ['plain http off loopback', { jwks_uri: 'http://idp.example.test/jwks.json' }, 'body.jwks_uri: must use https (plain http only on a loopback address)'],
    ['another scheme', { jwks_uri: 'file:///etc/keys.json' }, 'body.jwks_uri: must use https'],
    ['credentials in the URL', { jwks_uri: 'https://user:pw@idp.example.test/jwks.json' }, 'body.jwks_uri: must not carry credentials'],
    ['a host the outbound policy denies', { jwks_uri: 'https://169.254.169.254/jwks.json' }, 'body.jwks_uri: outbound host "169.254.169.254" is refused'],
  ];
  for (const [what, change, message] of refusals) {
    it(`refuses ${what} (400 naming the field)`, async () => {
      const body = { ...settingsFor(keys), ...change };
      const reply = await putSettings(gw, JSON.parse(JSON.stringify(body)));
      expect(reply.status, reply.text).to.equal(400);
      expect(reply.json.error.message).to.contain(message);
      expect((await call(gw, 'GET', SETTINGS_PATH)).status).to.equal(404);
    });
  }

  it('accepts https key sets and http on loopback names', async () => {
    for (const uri of ['https://idp.example.test/.well-known/jwks.json', 'http://localhost:9/jwks.json', 'http://[::1]:9/jwks.json']) {
      const reply = await putSettings(gw, settingsFor(keys, { jwks_uri: uri }));
      expect(reply.status, `${uri}: ${reply.text}`).to.equal(200);
    }
  });

  it('is for organisation owners and admins only: a workspace key is refused (403)', async () => {
    const workspace = (await call(gw, 'GET', '/v1/workspaces')).json.data[0];
    const created = await call(gw, 'POST', '/v1/api-keys', { name: 'ws', type: 'workspace-service', workspace_id: workspace.id, scopes: ['*'] });
    expect(created.status, created.text).to.equal(200);
    const secret = created.json.key as string;
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await call(gw, method, SETTINGS_PATH, method === 'PUT' ? settingsFor(keys) : undefined, { 'x-gw-api-key': secret });
      expect(reply.status, method).to.equal(403);
      expect(reply.json.error.message).to.equal('only organisation owners and admins manage the organisation\'s JWT settings');
    }
  });

  it('needs a caller (401 without a key)', async () => {
    const res = await fetch(gw.url + SETTINGS_PATH);
    expect(res.status).to.equal(401);
  });
});
