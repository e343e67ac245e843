/** admin.configs: the /v1/configs routes: versions, validation and who may do what. */
import { expect } from 'chai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, fakeControlPlane, openaiIntegration, startAdminGateway } from '../integrations/harness.js';

describe('admin.configs: routes', () => {
  let gw: TestGateway;
  let mock: MockOpenAI;
  const state = { settings: {}, workspaces: [{ id: 'ws-1', slug: 'team-one', organisation_id: 'default', status: 'active' }] };

  before(async () => {
    mock = await startMockOpenAI();
    gw = await startAdminGateway({ plugins: [fakeControlPlane(state)] });
    await call(gw, 'POST', '/v1/integrations', openaiIntegration(mock, 'acct', 'sk-acct-000000000000'));
  });
  after(async () => {
    await gw?.stop();
    await mock?.close();
  });

  describe('versions', () => {
    let id: string;
    const v1 = { provider: '@acct', retry: { attempts: 2 } };
    const v2 = { strategy: { mode: 'fallback' }, targets: [{ provider: '@acct' }, { virtual_key: 'acct' }] };

    it('creates version 1 with a generated slug', async () => {
      const res = await call(gw, 'POST', '/v1/configs', { name: 'Prod', config: v1 });
      expect(res.status, res.text).to.equal(200);
      id = res.json.id;
      expect(res.json).to.deep.include({ object: 'config', name: 'Prod', version: 1, workspace_id: null, organisation_id: 'default', status: 'active', config: v1 });
      expect(res.json.slug).to.match(/^pc-[0-9a-f]{12}$/);
      expect(res.json.created_at).to.match(/Z$/);
    });

    it('makes a new version on every PUT with a config; GET answers the latest or ?version=N', async () => {
      const put = await call(gw, 'PUT', `/v1/configs/${id}`, { config: v2 });
      expect(put.status, put.text).to.equal(200);
      expect(put.json).to.deep.include({ version: 2, config: v2 });
      const latest = await call(gw, 'GET', `/v1/configs/${id}`);
      expect(latest.json).to.deep.include({ version: 2, latest_version: 2, config: v2 });
      const first = await call(gw, 'GET', `/v1/configs/${id}?version=1`);
      expect(first.json).to.deep.include({ version: 1, latest_version: 2, config: v1 });
      const missing = await call(gw, 'GET', `/v1/configs/${id}?version=7`);
      expect(missing.status).to.equal(404);
      expect(missing.json.error.code).to.equal('config_version_not_found');
      expect((await call(gw, 'GET', `/v1/configs/${id}?version=zero`)).status).to.equal(400);
    });

    it('renames without a new version, and finds the config by its slug', async () => {
      const res = await call(gw, 'PUT', `/v1/configs/${id}`, { name: 'Production', slug: 'prod' });
      expect(res.json).to.deep.include({ name: 'Production', slug: 'prod', version: 2 });
      expect((await call(gw, 'GET', '/v1/configs/prod')).json.id).to.equal(id);
    });

    it('lists configs without their bodies, paginated', async () => {
      await call(gw, 'POST', '/v1/configs', { slug: 'second', config: { provider: '@acct' } });
      await call(gw, 'POST', '/v1/configs', { slug: 'third', config: { provider: '@acct' } });
      const all = await call(gw, 'GET', '/v1/configs');
      expect(all.json).to.deep.include({ object: 'list', total_count: 3, current_page: 0, page_size: 50 });
      expect(all.json.data.map((c: any) => c.slug)).to.deep.equal(['prod', 'second', 'third']);
      expect(all.json.data[0]).not.to.have.property('config');
      const page = await call(gw, 'GET', '/v1/configs?page_size=1&current_page=2');
      expect(page.json.data.map((c: any) => c.slug)).to.deep.equal(['third']);
      expect(page.json.total_count).to.equal(3);
    });

    it('deletes a config with all its versions', async () => {
      expect((await call(gw, 'DELETE', '/v1/configs/third')).json).to.deep.include({ object: 'config', deleted: true });
      expect((await call(gw, 'GET', '/v1/configs/third')).status).to.equal(404);
      expect((await call(gw, 'DELETE', '/v1/configs/third')).status).to.equal(404);
    });
  });

  describe('validation', () => {
    const bad: [string, unknown, string][] = [
      ['no config', { name: 'x' }, 'body.config: is required'],
      ['a config that is not an object', { config: [1] }, 'body.config: must be an object'],
      ['a config the schema refuses', { config: { provider: '@acct', retry: { attempts: 99 } } }, 'config.retry.attempts: must be <= 10'],
      ['a config without a key group', { config: { name: 'alone' } }, /^config: needs provider/ as unknown as string],
      ['a conditional strategy naming no target', { config: { strategy: { mode: 'conditional', conditions: [{ query: {}, then: 'x' }], default: 'y' }, targets: [{ provider: '@acct', name: 'y' }] } }, 'config.strategy.conditions.0.then: must name a target of this node: no target is named "x"'],
      ['a provider key', { config: { strategy: { mode: 'fallback' }, targets: [{ provider: 'openai', api_key: 'sk-x' }] } }, 'config.targets.0.api_key: a stored config cannot hold provider credentials: store them in an integration and name it with provider "@slug" (or virtual_key)'],
      ['cloud credentials', { config: { provider: 'bedrock', cloudA_access_key_id: 'a', cloudA_secret_access_key: 'b' } }, /^config\.cloudA_access_key_id: a stored config cannot hold provider credentials/ as unknown as string],
      ['an unknown integration', { config: { provider: '@nope' } }, 'config.provider: no integration "@nope"'],
      ['an unknown virtual key', { config: { strategy: { mode: 'single' }, targets: [{ virtual_key: 'nope' }] } }, 'config.targets.0.virtual_key: no integration or virtual key "nope"'],
      ['a bad slug', { slug: 'no spaces', config: { provider: '@acct' } }, /^body\.slug: must be 1 to 63 letters/ as unknown as string],
      ['a taken slug', { slug: 'prod', config: { provider: '@acct' } }, 'body.slug: "prod" is taken by another config'],
      ['an unknown workspace', { workspace_id: 'nowhere', config: { provider: '@acct' } }, 'body.workspace_id: unknown workspace "nowhere"'],
    ];
    for (const [what, body, message] of bad) {
      it(`refuses ${what} with a 400 naming the path`, async () => {
        const res = await call(gw, 'POST', '/v1/configs', body);
        expect(res.status, res.text).to.equal(400);
        if (typeof message === 'string') expect(res.json.error.message).to.equal(message);
        else expect(res.json.error.message).to.match(message as unknown as RegExp);
      });
    }

    it('checks a new version the same way', async () => {
      const res = await call(gw, 'PUT', '/v1/configs/prod', { config: { provider: 'openai', api_key: 'sk-x' } });
      expect(res.status).to.equal(400);
      expect((await call(gw, 'GET', '/v1/configs/prod')).json.version).to.equal(2);
    });
  });

  describe('authorisation', () => {
    it('needs the configs scope of each action', async () => {
      const none = as({ type: 'organisation-service', scopes: ['integrations.*'] });
      const cases: [string, string, unknown, string][] = [
        ['POST', '/v1/configs', { config: { provider: '@acct' } }, 'configs.create'],
        ['GET', '/v1/configs', undefined, 'configs.list'],
        ['GET', '/v1/configs/prod', undefined, 'configs.read'],
        ['PUT', '/v1/configs/prod', { name: 'x' }, 'configs.update'],
        ['DELETE', '/v1/configs/prod', undefined, 'configs.delete'],
      ];
      for (const [method, path, body, scope] of cases) {
        const res = await call(gw, method, path, body, none);
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.json.error.message).to.equal(`the API key lacks the scope ${scope}`);
      }
      expect((await call(gw, 'GET', '/v1/configs/prod', undefined, as({ type: 'organisation-service', scopes: ['configs.read'] }))).status).to.equal(200);
    });

    it('keeps workspace keys to their workspace; organisation-wide configs are readable by all', async () => {
      const ws1 = as({ workspaceId: 'ws-1', scopes: ['configs.*'] });
      const ws2 = as({ workspaceId: 'ws-2', scopes: ['configs.*'] });
      const mine = await call(gw, 'POST', '/v1/configs', { slug: 'team-one-config', config: { provider: '@acct' } }, ws1);
      expect(mine.json.workspace_id).to.equal('ws-1');
      expect((await call(gw, 'POST', '/v1/configs', { slug: 'x', workspace_id: 'ws-2', config: { provider: '@acct' } }, ws1)).status).to.equal(403);
      expect((await call(gw, 'GET', '/v1/configs/team-one-config', undefined, ws2)).status).to.equal(404);
      expect((await call(gw, 'GET', '/v1/configs/prod', undefined, ws2)).status).to.equal(200);
      expect((await call(gw, 'PUT', '/v1/configs/prod', { name: 'x' }, ws2)).status).to.equal(403);
      const list = await call(gw, 'GET', '/v1/configs', undefined, ws2);
      expect(list.json.data.map((c: any) => c.slug)).not.to.include('team-one-config');
      // An organisation key names the workspace, by slug through the directory.
      const placed = await call(gw, 'POST', '/v1/configs', { slug: 'placed', workspace_id: 'team-one', config: { provider: '@acct' } });
      expect(placed.json.workspace_id).to.equal('ws-1');
      const filtered = await call(gw, 'GET', '/v1/configs?workspace_id=ws-1');
      expect(filtered.json.data.map((c: any) => c.slug)).to.deep.equal(['team-one-config', 'placed']);
    });
  });
});
