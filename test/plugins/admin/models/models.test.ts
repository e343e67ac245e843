/** admin.models: GET /v1/models lists the models of the caller's integrations, filtered, with the filtered total. */
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { DEFAULT_MODELS } from '../../../../plugins/admin/models/defaults.js';
import { as, call, startAdminGateway } from '../integrations/harness.js';

describe('admin.models: GET /v1/models', () => {
  let gw: TestGateway;
  const member = as({ type: 'workspace-user', role: 'member', workspaceId: 'ws-1', scopes: [] });

  before(async () => {
    gw = await startAdminGateway();
    const created = await Promise.all([
      call(gw, 'POST', '/v1/integrations', { slug: 'oa', provider: 'openai', key: 'sk-oa', models: [{ slug: 'ft:gpt-4o-mini:acme' }, { slug: 'o3', enabled: false }] }),
      call(gw, 'POST', '/v1/integrations', { slug: 'claude', provider: 'anthropic', key: 'sk-ant', allowed_workspaces: ['ws-2'] }),
      call(gw, 'POST', '/v1/integrations', { slug: 'co', provider: 'cohere', key: 'co-key', models: [{ slug: 'command-a', configurations: { custom_host: 'http://127.0.0.1:9' } }] }),
    ]);
    for (const res of created) expect(res.status, res.text).to.equal(200);
  });
  after(async () => {
    await gw?.stop();
  });

  const ids = (res: { json: any }) => res.json.data.map((m: any) => `${m.integration}/${m.id}`);

  it('lists provider defaults and the integrations\' own models, less the disabled ones', async () => {
    const res = await call(gw, 'GET', '/v1/models?page_size=100');
    expect(res.status).to.equal(200);
    const expected = [
      ...[...DEFAULT_MODELS['openai']!.filter((m) => m !== 'o3'), 'ft:gpt-4o-mini:acme'].map((m) => `oa/${m}`),
      ...DEFAULT_MODELS['anthropic']!.map((m) => `claude/${m}`),
      ...[...DEFAULT_MODELS['cohere']!, 'command-a'].map((m) => `co/${m}`),
    ];
    expect(ids(res)).to.have.members(expected);
    expect(res.json).to.deep.include({ object: 'list', total_count: expected.length, current_page: 0, page_size: 100 });
    expect(res.json.data.find((m: any) => m.id === 'ft:gpt-4o-mini:acme')).to.deep.equal({
      id: 'ft:gpt-4o-mini:acme', object: 'model', provider: 'openai', integration: 'oa', owned_by: 'openai', source: 'integration',
    });
    expect(res.json.data.find((m: any) => m.id === 'gpt-4o').source).to.equal('default');
    expect(res.text).not.to.contain('sk-oa').and.not.to.contain('127.0.0.1:9');
  });

  it('filters by provider, integration and search; total_count is the filtered total and pages cut it', async () => {
    const anthropic = await call(gw, 'GET', '/v1/models?provider=anthropic');
    expect(anthropic.json.total_count).to.equal(DEFAULT_MODELS['anthropic']!.length);
    const byIntegration = await call(gw, 'GET', '/v1/models?integration=@co');
    expect(byIntegration.json.total_count).to.equal(DEFAULT_MODELS['cohere']!.length + 1);
    expect((await call(gw, 'GET', '/v1/models?integration=co')).json.total_count).to.equal(byIntegration.json.total_count);
    const search = await call(gw, 'GET', '/v1/models?search=MINI');
    const minis = DEFAULT_MODELS['openai']!.filter((m) => m.includes('mini') && m !== 'o3').length + 1;
    expect(search.json.total_count).to.equal(minis);
    expect(search.json.data.every((m: any) => m.id.toLowerCase().includes('mini'))).to.equal(true);
    const page = await call(gw, 'GET', '/v1/models?search=mini&page_size=2&current_page=1');
    expect(page.json.total_count).to.equal(minis);
    expect(page.json.data).to.have.length(2);
    expect(ids(page)).to.deep.equal(ids(search).slice(2, 4));
    const none = await call(gw, 'GET', '/v1/models?provider=openai&integration=claude');
    expect(none.json).to.deep.include({ total_count: 0, data: [] });
  });

  it('is open to every workspace role, and shows only the integrations allowed in the caller\'s workspace', async () => {
    const res = await call(gw, 'GET', '/v1/models?page_size=100', undefined, member);
    expect(res.status).to.equal(200);
    const integrations = new Set(res.json.data.map((m: any) => m.integration));
    expect([...integrations].sort()).to.deep.equal(['co', 'oa']);
    const ws2 = await call(gw, 'GET', '/v1/models?provider=anthropic', undefined, as({ type: 'workspace-user', role: 'member', workspaceId: 'ws-2', scopes: [] }));
    expect(ws2.json.total_count).to.equal(DEFAULT_MODELS['anthropic']!.length);
    expect((await call(gw, 'GET', '/v1/models', undefined, as({ organisationId: 'org-2', scopes: [] }))).json.total_count).to.equal(0);
  });

  it('needs a gateway key, and checks its page parameters', async () => {
    const res = await fetch(gw.url + '/v1/models');
    expect(res.status).to.equal(401);
    const bad = await call(gw, 'GET', '/v1/models?page_size=1000');
    expect(bad.status).to.equal(400);
    expect(bad.json.error.message).to.equal('query.page_size: must be an integer from 1 to 100');
  });
});
