/** admin.integrations: who may read and write integrations (scopes, workspace boundary, roles and settings). */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, fakeControlPlane, openaiIntegration, startAdminGateway } from './harness.js';

describe('admin.integrations: authorisation', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const state = {
    settings: { managersWriteWsIntegrations: true } as Record<string, unknown>,
    workspaces: [
      { id: 'ws-1', slug: 'team-one', organisation_id: 'default', status: 'active' },
      { id: 'ws-2', slug: 'team-two', organisation_id: 'default', status: 'active' },
      { id: 'ws-x', slug: 'elsewhere', organisation_id: 'org-2', status: 'active' },
    ],
  };
  const ws1 = (extra: Record<string, unknown> = {}) => as({ workspaceId: 'ws-1', scopes: ['integrations.*'], ...extra });

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startAdminGateway({ plugins: [fakeControlPlane(state)] });
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'org-wide', 'sk-org-wide-000000000'));
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'team-two-only', 'sk-team-two-00000000', { allowed_workspaces: ['ws-2'] }));
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  describe('scopes', () => {
    it('refuses a key without the scope of the route (403), per action', async () => {
      const none = as({ type: 'organisation-service', scopes: [] });
      const cases: [string, string, unknown, string][] = [
        ['POST', '/v1/integrations', openaiIntegration(mock, 'x', 'k'), 'integrations.create'],
        ['GET', '/v1/integrations', undefined, 'integrations.list'],
        ['GET', '/v1/integrations/org-wide', undefined, 'integrations.read'],
        ['PUT', '/v1/integrations/org-wide', { name: 'x' }, 'integrations.update'],
        ['PUT', '/v1/integrations/org-wide/integration-models', { models: [] }, 'integrations.update'],
        ['DELETE', '/v1/integrations/org-wide', undefined, 'integrations.delete'],
      ];
      for (const [method, path, body, scope] of cases) {
        const res = await call(gw, method, path, body, none);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.json.error).to.deep.include({ type: 'permission_error', message: `the API key lacks the scope ${scope}` });
      }
    });

    it('allows exactly what the scopes grant', async () => {
      const reader = as({ type: 'organisation-service', scopes: ['integrations.read'] });
      expect((await call(gw, 'GET', '/v1/integrations/org-wide', undefined, reader)).status).to.equal(200);
      expect((await call(gw, 'GET', '/v1/integrations', undefined, reader)).status).to.equal(403);
      const writer = as({ type: 'organisation-service', scopes: ['integrations.*'] });
      const created = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'by-service', 'sk-by-service-0000000'), writer);
      expect(created.status, created.text).to.equal(200);
      expect(created.json.allow_all_workspaces).to.equal(true);
      expect((await call(gw, 'DELETE', '/v1/integrations/by-service', undefined, writer)).status).to.equal(200);
    });
  });

  describe('workspace keys', () => {
    it('create integrations limited to their own workspace', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'team-one-key', 'sk-team-one-00000000'), ws1());
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.deep.include({ allow_all_workspaces: false, allowed_workspaces: ['ws-1'] });
      expect((await call(gw, 'PUT', '/v1/integrations/team-one-key', { name: 'Team one' }, ws1())).status).to.equal(200);
    });

    it('cannot open an integration to other workspaces', async () => {
      for (const extra of [{ allow_all_workspaces: true }, { allowed_workspaces: ['ws-1', 'ws-2'] }, { allowed_workspaces: ['ws-2'] }]) {
        const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'wider', 'k', extra), ws1());
        expect(res.status).to.equal(403);
        expect(res.json.error.message).to.equal('a workspace key can only make integrations for its own workspace (ws-1)');
      }
      const widen = await call(gw, 'PUT', '/v1/integrations/team-one-key', { allow_all_workspaces: true }, ws1());
      expect(widen.status).to.equal(403);
    });

    it('read organisation-wide integrations but cannot change them', async () => {
      expect((await call(gw, 'GET', '/v1/integrations/org-wide', undefined, ws1())).status).to.equal(200);
      const res = await call(gw, 'PUT', '/v1/integrations/org-wide', { name: 'mine now' }, ws1());
      expect(res.status).to.equal(403);
      expect(res.json.error.message).to.equal('integration "org-wide" is not limited to workspace ws-1: only an organisation key may change it');
      expect((await call(gw, 'DELETE', '/v1/integrations/org-wide', undefined, ws1())).status).to.equal(403);
    });

    it('do not see integrations of other workspaces (404, and absent from lists)', async () => {
      expect((await call(gw, 'GET', '/v1/integrations/team-two-only', undefined, ws1())).status).to.equal(404);
      expect((await call(gw, 'PUT', '/v1/integrations/team-two-only', { name: 'x' }, ws1())).status).to.equal(404);
      const list = await call(gw, 'GET', '/v1/integrations', undefined, ws1());
      const slugs = list.json.data.map((i: any) => i.slug);
      expect(slugs).to.include.members(['org-wide', 'team-one-key']);
      expect(slugs).not.to.include('team-two-only');
      expect(list.json.total_count).to.equal(slugs.length);
      const ws2 = await call(gw, 'GET', '/v1/integrations', undefined, as({ workspaceId: 'ws-2', scopes: ['integrations.list'] }));
      expect(ws2.json.data.map((i: any) => i.slug)).to.include('team-two-only').and.not.include('team-one-key');
    });
  });

  describe('workspace roles and settings', () => {
    it('never lets a member write', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'by-member', 'k'), ws1({ type: 'workspace-user', role: 'member' }));
      expect(res.status).to.equal(403);
      expect(res.json.error.message).to.equal('workspace members cannot write integrations');
      expect((await call(gw, 'GET', '/v1/integrations/team-one-key', undefined, ws1({ type: 'workspace-user', role: 'member' }))).status).to.equal(200);
    });

    it('lets a manager write while managersWriteWsIntegrations is on, and an admin always', async () => {
      const manager = ws1({ type: 'workspace-user', role: 'Manager' });
      expect((await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'by-manager', 'sk-by-manager-0000000'), manager)).status).to.equal(200);
      state.settings['managersWriteWsIntegrations'] = false;
      try {
        const refused = await call(gw, 'PUT', '/v1/integrations/by-manager', { name: 'x' }, manager);
        expect(refused.status).to.equal(403);
        expect(refused.json.error.message).to.equal('workspace managers cannot write integrations (setting managersWriteWsIntegrations is off)');
        expect((await call(gw, 'PUT', '/v1/integrations/by-manager', { name: 'x' }, ws1({ type: 'workspace-user', role: 'admin' }))).status).to.equal(200);
      } finally {
        state.settings['managersWriteWsIntegrations'] = true;
      }
    });
  });

  describe('workspace names', () => {
    it('turns workspace slugs into ids through the directory', async () => {
      const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'two-teams', 'k', { allowed_workspaces: ['team-one', 'ws-2'] }));
      expect(res.status, res.text).to.equal(200);
      expect(res.json.allowed_workspaces).to.deep.equal(['ws-1', 'ws-2']);
    });

    it('refuses unknown workspaces and those of another organisation', async () => {
      for (const ref of ['nope', 'elsewhere']) {
        const res = await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'lost', 'k', { allowed_workspaces: ['ws-1', ref] }));
        expect(res.status).to.equal(400);
        expect(res.json.error.message).to.equal(`body.allowed_workspaces.1: unknown workspace "${ref}"`);
      }
    });
  });
});
