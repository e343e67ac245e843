/**
 * Who may call SCIM (a `scim.*` key as a bearer token or in x-gw-api-key; 401 without a key, 403
 * with a key lacking the scope or bound to a workspace), errors in the SCIM error schema, the
 * Authorization header of other routes left alone, and the discovery endpoints.
 */
import { expect } from 'chai';
import ScimPlugin from '../../../../plugins/identity/scim/index.js';
import { startGateway, TEST_API_KEY } from '../../../helpers/gateway.js';
import { createKey, scimClient, SCIM, scimErrorOf, startScimGateway, type ScimGateway } from './helpers.js';

describe('identity.scim: authentication and discovery', () => {
  let s: ScimGateway;

  before(async () => {
    s = await startScimGateway();
  });
  after(async () => {
    await s.stop();
  });

  it('answers 401 in the SCIM error schema without a key, with a bad bearer, with a malformed Authorization', async () => {
    const none = await s.bare.get(`${SCIM}/Users`);
    expect(none.status).to.equal(401);
    expect(scimErrorOf(none)).to.deep.include({ status: '401' });
    expect(none.json.detail).to.contain('Authorization: Bearer');
    const unknown = await scimClient(s.gw.url, { authorization: 'Bearer gw-not-a-key' }).get(`${SCIM}/Users`);
    expect(unknown.status).to.equal(401);
    expect(scimErrorOf(unknown).detail).to.contain('Bearer');
    const basic = await scimClient(s.gw.url, { authorization: 'Basic dXNlcjpwYXNz' }).get(`${SCIM}/Users`);
    expect(basic.status).to.equal(401);
    const mappings = await s.bare.get('/v1/scim/workspaces');
    expect(mappings.status).to.equal(401);
    expect(mappings.json.error.message).to.contain('Authorization: Bearer');
  });

  it('accepts the key in x-gw-api-key too', async () => {
    const reply = await scimClient(s.gw.url, { 'x-gw-api-key': s.scimKey }).get(`${SCIM}/Users`);
    expect(reply.status, reply.text).to.equal(200);
  });

  it('answers 403 to a key without scim.* and to a workspace key', async () => {
    const other = await createKey(s.admin, { name: 'reader', type: 'organisation-service', scopes: ['users.read'] });
    const wrong = await scimClient(s.gw.url, { authorization: `Bearer ${other}` }).get(`${SCIM}/Users`);
    expect(wrong.status).to.equal(403);
    expect(scimErrorOf(wrong)).to.deep.include({ status: '403' });
    expect(wrong.json.detail).to.contain('scim.read');
    const readOnly = await createKey(s.admin, { name: 'scim reader', type: 'organisation-service', scopes: ['scim.read'] });
    const reader = scimClient(s.gw.url, { authorization: `Bearer ${readOnly}` });
    expect((await reader.get(`${SCIM}/Users`)).status).to.equal(200);
    const write = await reader.post(`${SCIM}/Users`, { userName: 'nope@example.com' });
    expect(write.status).to.equal(403);
    expect(write.json.detail).to.contain('scim.write');

    const workspace = (await s.admin.get('/v1/workspaces/default')).json.id;
    const wsKey = await createKey(s.admin, { name: 'ws', type: 'workspace-service', workspace_id: workspace, scopes: ['scim.*'] });
    const bound = await scimClient(s.gw.url, { authorization: `Bearer ${wsKey}` }).get(`${SCIM}/Users`);
    expect(bound.status).to.equal(403);
    expect(scimErrorOf(bound).detail).to.contain('organisation-level');
  });

  it('takes a bearer key on other routes only through the gateway identity rule (identity.jwt), with the key\'s own scopes', async () => {
    // The default preset has identity.jwt: without x-gw-api-key a bearer gateway key names the caller
    // anywhere, so the SCIM key reaches /v1/users as itself and lacks the scope there.
    const reply = await scimClient(s.gw.url, { authorization: `Bearer ${s.scimKey}` }).get('/v1/users');
    expect(reply.status).to.equal(403);
  });

  it('answers ServiceProviderConfig, Schemas and ResourceTypes', async () => {
    const config = await s.idp.get(`${SCIM}/ServiceProviderConfig`);
    expect(config.status).to.equal(200);
    expect(config.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(config.json).to.deep.include({ patch: { supported: true }, filter: { supported: true, maxResults: 200 }, etag: { supported: false } });
    expect(config.json.bulk.supported).to.equal(false);
    expect(config.json.authenticationSchemes[0].type).to.equal('oauthbearertoken');

    const schemas = await s.idp.get(`${SCIM}/Schemas`);
    expect(schemas.json.totalResults).to.equal(2);
    const ids = schemas.json.Resources.map((r: { id: string }) => r.id);
    expect(ids).to.deep.equal(['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:core:2.0:Group']);
    const user = await s.idp.get(`${SCIM}/Schemas/urn:ietf:params:scim:schemas:core:2.0:User`);
    expect(user.json.attributes.find((a: { name: string }) => a.name === 'userName')).to.deep.include({ required: true, uniqueness: 'server' });
    expect((await s.idp.get(`${SCIM}/Schemas/urn:nope`)).status).to.equal(404);

    const types = await s.idp.get(`${SCIM}/ResourceTypes`);
    expect(types.json.Resources.map((r: { endpoint: string }) => r.endpoint)).to.deep.equal(['/Users', '/Groups']);
    expect((await s.idp.get(`${SCIM}/ResourceTypes/Group`)).json.schema).to.equal('urn:ietf:params:scim:schemas:core:2.0:Group');
    const unknownType = await s.idp.get(`${SCIM}/ResourceTypes/Device`);
    expect(scimErrorOf(unknownType)).to.deep.include({ status: '404' });
  });
});

describe('identity.scim: in a gateway without admin.workspaces', () => {
  it('boots, and answers 500 plugin_not_loaded naming admin.workspaces', async () => {
    const gw = await startGateway({ composition: { plugins: [ScimPlugin], disable: ['admin.workspaces'] } });
    try {
      const reply = await scimClient(gw.url, { authorization: `Bearer ${TEST_API_KEY}` }).post(`${SCIM}/Users`, { userName: 'a@example.com' });
      expect(reply.status).to.equal(500);
      expect(scimErrorOf(reply).detail).to.equal('SCIM needs the plugin admin.workspaces: load it');
    } finally {
      await gw.stop();
    }
  });
});
