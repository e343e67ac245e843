/**
 * admin.gateway-info: `GET /v1/gateway/plugins` answers the gateway's description (the JSON of
 * `--describe=json`) to organisation owners and admins; 403 for a workspace key, 401 without a key.
 */
import { expect } from 'chai';
import { createKey, defaultWorkspaceId, startControlPlane, type ControlPlane } from '../api-keys/helpers.js';
import GatewayInfoPlugin from '../../../../plugins/admin/gateway-info/index.js';

describe('GET /v1/gateway/plugins', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startControlPlane();
  });
  after(() => cp?.stop());

  it('answers an organisation owner the description of this gateway', async () => {
    const reply = await cp.owner.get('/v1/gateway/plugins');
    expect(reply.status, reply.text).to.equal(200);
    // The same content as --describe=json of this gateway.
    expect(reply.json).to.deep.equal(JSON.parse(JSON.stringify(cp.gw.gateway.runtime.describe())));
    expect(reply.json.hooks[0].name).to.equal('onRequest');
    expect(reply.json.hooks[0].taps).to.deep.include({ plugin: 'auth.api-key', stage: 'AUTH' });
    expect(reply.json.registries.routes).to.deep.include({ method: 'GET', path: '/v1/gateway/plugins', protected: true });
    expect(reply.json.plugins.map((p: { id: string }) => p.id)).to.include('admin.gateway-info');
  });

  it('answers an organisation-level admin key too', async () => {
    const admin = await createKey(cp, { name: 'ops', type: 'organisation-service', scopes: ['*'] });
    const reply = await cp.as(admin.key).get('/v1/gateway/plugins');
    expect(reply.status, reply.text).to.equal(200);
  });

  it('is 403 for a workspace key, even with every scope', async () => {
    const workspace = await defaultWorkspaceId(cp);
    const key = await createKey(cp, { name: 'ws', type: 'workspace-service', workspace_id: workspace, scopes: ['*'] });
    const reply = await cp.as(key.key).get('/v1/gateway/plugins');
    expect(reply.status).to.equal(403);
    expect(reply.json.error.code).to.equal('forbidden');
    expect(reply.json.error.message).to.include('organisation owners');
  });

  it('is 401 without a key, and with an unknown one', async () => {
    const none = await fetch(`${cp.gw.url}/v1/gateway/plugins`);
    expect(none.status).to.equal(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).to.be.a('string');
    expect((await cp.as('gw-not-a-key').get('/v1/gateway/plugins')).status).to.equal(401);
  });

  it('is in the default preset', () => {
    expect(cp.gw.gateway.runtime.plugins.map((p) => p.id)).to.include(GatewayInfoPlugin.manifest.id);
  });
});
