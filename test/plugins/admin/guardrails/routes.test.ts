/** admin.guardrails: the /v1/guardrails routes, their validation, masking and authorisation. */
import { expect } from 'chai';
import type { TestGateway } from '../../../helpers/gateway.js';
import { as, call, startAdminGateway } from '../integrations/harness.js';

const TOKEN = 'Bearer hook-secret-0123456789abcdef';

describe('admin.guardrails: routes', () => {
  let gw: TestGateway;
  let id: string;

  before(async () => {
    gw = await startAdminGateway();
  });
  after(async () => {
    await gw?.stop();
  });

  it('creates a guardrail from checks and actions, and tells where it can run', async () => {
    const res = await call(gw, 'POST', '/v1/guardrails', {
      name: 'No digits', slug: 'no-digits',
      checks: [{ id: 'default.regexMatch', parameters: { rule: '^[^0-9]*$' } }, { id: 'default.wordCount', parameters: { maxWords: 50 } }],
      actions: { deny: true, on_fail: { feedback: { value: -1, weight: 1 } } },
    });
    expect(res.status, res.text).to.equal(200);
    id = res.json.id;
    expect(res.json).to.deep.include({
      object: 'guardrail', slug: 'no-digits', name: 'No digits', workspace_id: null, organisation_id: 'default', status: 'active',
      actions: { deny: true, on_fail: { feedback: { value: -1, weight: 1 } } },
      phases: ['beforeRequest', 'input', 'output', 'afterRequest'],
    });
    expect(res.json.checks).to.deep.equal([{ id: 'default.regexMatch', parameters: { rule: '^[^0-9]*$' } }, { id: 'default.wordCount', parameters: { maxWords: 50 } }]);
  });

  it('generates a slug when none is given', async () => {
    const res = await call(gw, 'POST', '/v1/guardrails', { name: 'Short', checks: [{ id: 'default.wordCount', parameters: { maxWords: 5 } }] });
    expect(res.json.slug).to.match(/^gr-[0-9a-f]{8}$/);
    expect(res.json.actions).to.deep.equal({});
  });

  it('reads one by id or slug', async () => {
    expect((await call(gw, 'GET', `/v1/guardrails/${id}`)).json.slug).to.equal('no-digits');
    expect((await call(gw, 'GET', '/v1/guardrails/no-digits')).json.id).to.equal(id);
    const missing = await call(gw, 'GET', '/v1/guardrails/nope');
    expect(missing.status).to.equal(404);
    expect(missing.json.error.code).to.equal('guardrail_not_found');
  });

  const bad: [string, unknown, string | RegExp][] = [
    ['no name', { checks: [{ id: 'default.wordCount' }] }, 'body.name: is required'],
    ['no checks', { name: 'x', checks: [] }, 'body.checks: must have at least 1 item(s)'],
    ['an unknown check', { name: 'x', checks: [{ id: 'acme.nope' }] }, /^body\.checks\.0\.id: unknown check "acme\.nope" \(loaded: .*default\.regexMatch/],
    ['params the check refuses', { name: 'x', checks: [{ id: 'default.regexMatch', parameters: {} }] }, 'body.checks.0.parameters.rule: is required'],
    ['a regular expression that does not compile', { name: 'x', checks: [{ id: 'default.regexMatch', parameters: { rule: '(' } }] }, /^body\.checks\.0\.parameters\.rule: /],
    ['a bad runner timeout', { name: 'x', checks: [{ id: 'default.wordCount', parameters: { timeout: 0 } }] }, 'body.checks.0.parameters.timeout: must be >= 1'],
    ['an unknown action', { name: 'x', checks: [{ id: 'default.wordCount' }], actions: { block: true } }, 'body.actions.block: is not an allowed key'],
    ['a taken slug', { name: 'x', slug: 'no-digits', checks: [{ id: 'default.wordCount' }] }, 'body.slug: "no-digits" is taken by another guardrail'],
  ];
  for (const [what, body, message] of bad) {
    it(`refuses ${what} with a 400`, async () => {
      const res = await call(gw, 'POST', '/v1/guardrails', body);
      expect(res.status, res.text).to.equal(400);
      if (typeof message === 'string') expect(res.json.error.message).to.equal(message);
      else expect(res.json.error.message).to.match(message);
    });
  }

  it('masks secret-named parameters and keeps them when the mask comes back', async () => {
    const created = await call(gw, 'POST', '/v1/guardrails', {
      name: 'Policy service', slug: 'policy',
      checks: [{ id: 'default.webhook', parameters: { webhookURL: 'https://hooks.example/check', headers: { Authorization: TOKEN, 'x-team': 'a' } } }],
    });
    expect(created.status, created.text).to.equal(200);
    expect(created.text).not.to.contain(TOKEN);
    const shown = created.json.checks[0].parameters.headers;
    expect(shown).to.deep.equal({ Authorization: '********cdef', 'x-team': 'a' });
    for (const res of [await call(gw, 'GET', '/v1/guardrails/policy'), await call(gw, 'GET', '/v1/guardrails')]) expect(res.text).not.to.contain(TOKEN);
    // GET → edit → PUT: the mask keeps the stored token.
    const { GuardrailStoreService } = await import('../../../../core/index.js');
    const store = gw.gateway.runtime.services.get(GuardrailStoreService) as unknown as { get(id: string): any; revision: number };
    const revision = store.revision;
    const checks = created.json.checks;
    checks[0].parameters.headers['x-team'] = 'b';
    const updated = await call(gw, 'PUT', '/v1/guardrails/policy', { checks });
    expect(updated.status, updated.text).to.equal(200);
    expect(store.get('policy').checks[0].parameters.headers).to.deep.equal({ Authorization: TOKEN, 'x-team': 'b' });
    expect(Object.isFrozen(store.get('policy').checks[0].parameters)).to.equal(true);
    // The store's revision tells cached readers (compiled plans) that a guardrail changed.
    expect(store.revision).to.be.greaterThan(revision);
  });

  it('updates checks, actions and names (checked like a create), and deletes', async () => {
    const res = await call(gw, 'PUT', '/v1/guardrails/no-digits', { name: 'No numbers', actions: { deny: false } });
    expect(res.json).to.deep.include({ name: 'No numbers', actions: { deny: false } });
    expect(res.json.last_updated_at >= res.json.created_at).to.equal(true);
    expect((await call(gw, 'PUT', '/v1/guardrails/no-digits', { checks: [{ id: 'acme.nope' }] })).status).to.equal(400);
    const temp = await call(gw, 'POST', '/v1/guardrails', { name: 'temp', slug: 'temp', checks: [{ id: 'default.wordCount' }] });
    expect((await call(gw, 'DELETE', `/v1/guardrails/${temp.json.id}`)).json).to.deep.include({ object: 'guardrail', deleted: true });
    expect((await call(gw, 'GET', '/v1/guardrails/temp')).status).to.equal(404);
  });

  it('lists with current_page, page_size and ids, total_count counting the filtered list', async () => {
    const all = await call(gw, 'GET', '/v1/guardrails');
    expect(all.json).to.deep.include({ object: 'list', total_count: 3, current_page: 0, page_size: 50 });
    const page = await call(gw, 'GET', '/v1/guardrails?current_page=1&page_size=2');
    expect(page.json.data).to.have.length(1);
    expect(page.json.total_count).to.equal(3);
    const picked = await call(gw, 'GET', `/v1/guardrails?ids=${id},policy,unknown`);
    expect(picked.json.total_count).to.equal(2);
    expect(picked.json.data.map((g: any) => g.slug).sort()).to.deep.equal(['no-digits', 'policy']);
    const pickedPage = await call(gw, 'GET', `/v1/guardrails?ids=${id},policy&page_size=1&current_page=1`);
    expect(pickedPage.json).to.deep.include({ total_count: 2, current_page: 1, page_size: 1 });
    expect(pickedPage.json.data).to.have.length(1);
    expect((await call(gw, 'GET', '/v1/guardrails?current_page=-1')).status).to.equal(400);
  });

  it('needs the guardrails scope of each action, and keeps workspace keys to their workspace', async () => {
    const none = as({ type: 'organisation-service', scopes: ['configs.*'] });
    const body = { name: 'x', checks: [{ id: 'default.wordCount' }] };
    for (const [method, path, scope] of [['POST', '/v1/guardrails', 'create'], ['GET', '/v1/guardrails', 'list'], ['GET', '/v1/guardrails/policy', 'read'], ['PUT', '/v1/guardrails/policy', 'update'], ['DELETE', '/v1/guardrails/policy', 'delete']] as const) {
      const res = await call(gw, method, path, method === 'POST' || method === 'PUT' ? body : undefined, none);
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.json.error.message).to.equal(`the API key lacks the scope guardrails.${scope}`);
    }
    const ws1 = as({ workspaceId: 'ws-1', scopes: ['guardrails.*'] });
    const ws2 = as({ workspaceId: 'ws-2', scopes: ['guardrails.*'] });
    const mine = await call(gw, 'POST', '/v1/guardrails', { name: 'ws', slug: 'ws-guard', checks: [{ id: 'default.wordCount' }] }, ws1);
    expect(mine.json.workspace_id).to.equal('ws-1');
    expect((await call(gw, 'GET', '/v1/guardrails/ws-guard', undefined, ws2)).status).to.equal(404);
    expect((await call(gw, 'GET', '/v1/guardrails/policy', undefined, ws2)).status).to.equal(200);
    expect((await call(gw, 'DELETE', '/v1/guardrails/policy', undefined, ws2)).status).to.equal(403);
    expect((await call(gw, 'GET', '/v1/guardrails', undefined, ws2)).json.data.map((g: any) => g.slug)).not.to.include('ws-guard');
    expect((await call(gw, 'POST', '/v1/guardrails', { name: 'x', workspace_id: 'ws-2', checks: [{ id: 'default.wordCount' }] }, ws1)).status).to.equal(403);
  });
});
