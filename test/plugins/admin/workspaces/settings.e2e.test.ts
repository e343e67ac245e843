/**
 * Organisation settings and workspace overrides: defaults (spec §2.3), partial updates, validation,
 * who may write them, and the OrgSettings / Directory services other plugins read.
 */
import { expect } from 'chai';
import { DirectoryService, OrgSettingsService } from '../../../../plugins/admin/workspaces/contract.js';
import { createKey, defaultWorkspaceId, startControlPlane, userKey, type ControlPlane } from '../api-keys/helpers.js';


const DEFAULTS = {
  user_api_key_auto_create: false,
  user_api_key_ttl: null,
  user_api_key_rotation_period: null,
  membersViewPrompts: true,
  membersWritePrompts: false,
  managersViewPrompts: true,
  managersWritePrompts: true,
  membersViewAllData: true,
  managersViewAllData: true,
  managersWriteWsIntegrations: true,
  managersWriteWsMcpIntegrations: true,
  managersWriteMcpServers: true,
  organisationAdminsViewLogs: true,
  organisationAdminsViewLogMetadata: true,
};

describe('admin.workspaces: settings', () => {
  let cp: ControlPlane;
  let ws: string;

  before(async () => {
    cp = await startControlPlane();
    ws = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp.stop();
  });

  it('answers the defaults of spec §2.3 on a fresh store', async () => {
    const reply = await cp.owner.get('/v1/organisation/settings');
    expect(reply.status).to.equal(200);
    expect(reply.json).to.deep.include({ object: 'organisation_settings', organisation_id: 'default', ...DEFAULTS });
  });

  it('updates a subset and keeps the rest', async () => {
    const put = await cp.owner.put('/v1/organisation/settings', { membersWritePrompts: true, user_api_key_ttl: 3600 });
    expect(put.status, put.text).to.equal(200);
    expect(put.json).to.deep.include({ ...DEFAULTS, membersWritePrompts: true, user_api_key_ttl: 3600 });
    const back = await cp.owner.put('/v1/organisation/settings', { membersWritePrompts: false, user_api_key_ttl: null });
    expect(back.json).to.deep.include(DEFAULTS);
  });

  it('refuses unknown settings and wrong types with a 400 naming them', async () => {
    for (const [body, message] of [
      [{ membersViewEverything: true }, 'body.membersViewEverything: is not an allowed key'],
      [{ membersViewPrompts: 'yes' }, 'body.membersViewPrompts: must be a boolean'],
      [{ user_api_key_ttl: 10 }, 'body.user_api_key_ttl'],
      [{ user_api_key_rotation_period: 'daily' }, 'body.user_api_key_rotation_period: must be "weekly", "monthly" or null'],
    ] as const) {
      const reply = await cp.owner.put('/v1/organisation/settings', body);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain(message);
    }
  });

  it('overrides flags per workspace; null removes an override; organisation-only settings are not overridable', async () => {
    const put = await cp.owner.put(`/v1/workspaces/${ws}/settings`, { membersViewAllData: false, organisationAdminsViewLogs: false });
    expect(put.status, put.text).to.equal(200);
    expect(put.json).to.deep.include({ object: 'workspace_settings', workspace_id: ws, membersViewAllData: false, organisationAdminsViewLogs: false, managersViewAllData: true });
    expect(put.json.overrides).to.deep.equal({ membersViewAllData: false, organisationAdminsViewLogs: false });
    const get = await cp.owner.get('/v1/workspaces/default/settings');
    expect(get.json.membersViewAllData).to.equal(false);
    expect((await cp.owner.get('/v1/organisation/settings')).json.membersViewAllData).to.equal(true);
    const cleared = await cp.owner.put(`/v1/workspaces/${ws}/settings`, { membersViewAllData: null });
    expect(cleared.json.overrides).to.deep.equal({ organisationAdminsViewLogs: false });
    expect(cleared.json.membersViewAllData).to.equal(true);
    const ttl = await cp.owner.put(`/v1/workspaces/${ws}/settings`, { user_api_key_ttl: 60 });
    expect(ttl.status).to.equal(400);
    expect(ttl.json.error.message).to.contain('body.user_api_key_ttl: is not an allowed key');
    await cp.owner.put(`/v1/workspaces/${ws}/settings`, { organisationAdminsViewLogs: null });
  });

  it('lets organisation-level keys with the scope write settings; workspace keys read their own', async () => {
    const reader = await createKey(cp, { name: 'r', type: 'organisation-service', scopes: ['organisation_settings.read'] });
    expect((await cp.as(reader.key).get('/v1/organisation/settings')).status).to.equal(200);
    expect((await cp.as(reader.key).put('/v1/organisation/settings', { membersViewPrompts: false })).status).to.equal(403);
    const writer = await createKey(cp, { name: 'w', type: 'organisation-service', scopes: ['organisation_settings.*', 'workspaces.update'] });
    expect((await cp.as(writer.key).put('/v1/organisation/settings', { membersViewPrompts: true })).status).to.equal(200);
    expect((await cp.as(writer.key).put(`/v1/workspaces/${ws}/settings`, { membersViewPrompts: true })).status).to.equal(200);
    const admin = await userKey(cp, ws, 'admin', ['*']);
    expect((await cp.as(admin.key).put('/v1/organisation/settings', { membersViewPrompts: false })).status).to.equal(403);
    expect((await cp.as(admin.key).put(`/v1/workspaces/${ws}/settings`, { membersViewPrompts: false })).status).to.equal(403);
    expect((await cp.as(admin.key).get(`/v1/workspaces/${ws}/settings`)).status).to.equal(200);
    const other = (await cp.owner.post('/v1/workspaces', { name: 'Other' })).json.id;
    expect((await cp.as(admin.key).get(`/v1/workspaces/${other}/settings`)).status).to.equal(403);
  });

  it('serves effective settings and workspaces to other plugins from memory', async () => {
    const services = cp.gw.gateway.runtime.services;
    expect(services.has(OrgSettingsService)).to.equal(true);
    const settings = services.get(OrgSettingsService);
    const directory = services.get(DirectoryService);
    await cp.owner.put(`/v1/workspaces/${ws}/settings`, { managersWritePrompts: false });
    expect(await settings.get(ws)).to.deep.include({ managersWritePrompts: false, membersViewPrompts: true });
    expect(await settings.get()).to.deep.include({ managersWritePrompts: true });
    expect(await settings.get('no-such-workspace')).to.deep.include({ managersWritePrompts: true });
    expect(await settings.get(undefined, 'org-unknown')).to.deep.include(DEFAULTS);

    const byslug = await directory.workspace('default');
    expect(byslug).to.deep.include({ id: ws, slug: 'default', organisation_id: 'default', status: 'active', is_default: true });
    expect(await directory.workspace(ws)).to.equal(byslug);
    expect(await directory.workspace('default', 'org-b')).to.equal(undefined);
    expect(await directory.workspace('nope')).to.equal(undefined);

    const admin = await userKey(cp, ws, 'admin');
    expect(await directory.member(ws, admin.userId)).to.deep.equal({ role: 'admin' });
    expect(await directory.user(admin.userId)).to.deep.include({ id: admin.userId, role: 'member' });
    expect(await directory.keyName(admin.id)).to.equal('admin key');
    expect(await directory.keyName('unknown')).to.equal(undefined);
    expect(await directory.keysOfUser(admin.userId)).to.deep.equal([admin.id]);
  });
});
