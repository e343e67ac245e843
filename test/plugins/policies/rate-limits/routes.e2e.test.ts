/** /v1/policies/rate-limits: create, read, list, update, archive; validation and authorisation. */
import { expect } from 'chai';
import { aWorkspace, api, BASE, createPolicy, defaultWorkspaceId, startLimitsGateway, TestPrincipalPlugin, type Caller } from './harness.js';
import RateLimitsPlugin from '../../../../plugins/policies/rate-limits/index.js';
import { startGateway, type TestGateway } from '../../../helpers/gateway.js';
import { DirectoryService } from '../../../../plugins/admin/workspaces/contract.js';

const POLICY = {
  name: '100 RPM per API key',
  conditions: [{ key: 'endpoint_type', value: 'chatComplete' }],
  group_by: [{ key: 'api_key' }],
  type: 'requests',
  unit: 'rpm',
  value: 100,
};

const wsKey = (workspaceId: string, extra: Partial<Caller> = {}): Caller => ({ keyId: `key-${workspaceId}`, workspaceId, ...extra });

describe('policy.rate-limits: routes', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startLimitsGateway();
  });
  after(async () => {
    await gw?.stop();
  });

  it('creates a policy, answering its id and object kind; GET answers the whole record', async () => {
    const created = await api(gw, 'POST', BASE, POLICY);
    expect(created.status).to.equal(200);
    expect(created.json).to.have.keys('id', 'object');
    expect(created.json.object).to.equal('policy_rate_limits');
    expect(created.json.id).to.match(/^[0-9a-f-]{36}$/);

    const got = await api(gw, 'GET', `${BASE}/${created.json.id}`);
    expect(got.status).to.equal(200);
    expect(got.json).to.deep.include({ ...POLICY, id: created.json.id, object: 'policy_rate_limits', status: 'active', workspace_id: await defaultWorkspaceId(gw) });
    expect(got.json.organisation_id).to.be.a('string').and.not.equal('');
    expect(Date.parse(got.json.created_at)).to.be.closeTo(Date.now(), 5000);
    expect(got.json.last_updated_at).to.equal(got.json.created_at);
  });

  it('GET with ?status=archived of an active policy is 404; an unknown id is 404', async () => {
    const id = await createPolicy(gw, POLICY);
    const archived = await api(gw, 'GET', `${BASE}/${id}?status=archived`);
    expect(archived.status).to.equal(404);
    expect(archived.json.error.code).to.equal('policy_not_found');
    expect((await api(gw, 'GET', `${BASE}/00000000-0000-0000-0000-000000000000`)).status).to.equal(404);
    const bad = await api(gw, 'GET', `${BASE}/${id}?status=deleted`);
    expect(bad.status).to.equal(400);
    expect(bad.json.error.message).to.equal('query.status: must be one of active, archived');
  });

  it('updates with PUT (answering the policy) and archives with DELETE', async () => {
    const id = await createPolicy(gw, POLICY);
    const updated = await api(gw, 'PUT', `${BASE}/${id}`, { value: 5, unit: 'rph', name: null, group_by: [{ key: 'metadata.user' }] });
    expect(updated.status).to.equal(200);
    expect(updated.json).to.deep.include({ id, value: 5, unit: 'rph', name: null, group_by: [{ key: 'metadata.user' }], type: 'requests' });
    expect(Date.parse(updated.json.last_updated_at)).to.be.at.least(Date.parse(updated.json.created_at));

    const archived = await api(gw, 'DELETE', `${BASE}/${id}`);
    expect(archived.status).to.equal(200);
    expect(archived.json).to.deep.equal({ id, object: 'policy_rate_limits', status: 'archived' });
    expect((await api(gw, 'GET', `${BASE}/${id}`)).status).to.equal(404);
    expect((await api(gw, 'GET', `${BASE}/${id}?status=archived`)).json.status).to.equal('archived');
    expect((await api(gw, 'PUT', `${BASE}/${id}`, { value: 1 })).status).to.equal(404);
    expect((await api(gw, 'DELETE', `${BASE}/${id}`)).status).to.equal(404);
  });

  it('lists with total_count and current_page/page_size pagination, filtered by status and type', async () => {
    const fresh = await startLimitsGateway();
    try {
      const ids: string[] = [];
      // Lists are in creation order (created_at, then id): one millisecond apart.
      for (let i = 0; i < 5; i++) {
        ids.push(await createPolicy(fresh, { ...POLICY, name: `p${i}`, type: i < 3 ? 'requests' : 'tokens' }));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await api(fresh, 'DELETE', `${BASE}/${ids[0]}`);
      const page0 = await api(fresh, 'GET', `${BASE}?page_size=2`);
      expect(page0.json).to.deep.include({ object: 'list', total_count: 4, current_page: 0, page_size: 2 });
      expect(page0.json.data.map((p: { name: string }) => p.name)).to.deep.equal(['p1', 'p2']);
      const page1 = await api(fresh, 'GET', `${BASE}?page_size=2&current_page=1`);
      expect(page1.json.data.map((p: { name: string }) => p.name)).to.deep.equal(['p3', 'p4']);
      expect((await api(fresh, 'GET', `${BASE}?type=tokens`)).json.total_count).to.equal(2);
      const archived = await api(fresh, 'GET', `${BASE}?status=archived`);
      expect(archived.json.data.map((p: { id: string }) => p.id)).to.deep.equal([ids[0]]);
      expect((await api(fresh, 'GET', `${BASE}?page_size=101`)).status).to.equal(400);
      expect((await api(fresh, 'GET', `${BASE}?current_page=-1`)).status).to.equal(400);
    } finally {
      await fresh.stop();
    }
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['no conditions', { ...POLICY, conditions: [] }, 'body.conditions: must have at least 1 item(s)'],
    ['no group_by', { ...POLICY, group_by: [] }, 'body.group_by: must have at least 1 item(s)'],
    ['missing conditions', { ...POLICY, conditions: undefined }, 'body.conditions: is required'],
    ['an unknown unit', { ...POLICY, unit: 'rps' }, 'body.unit: must be one of "rpm", "rph", "rpd", "rpw"'],
    ['an unknown type', { ...POLICY, type: 'cost' }, 'body.type: must be one of "requests", "tokens"'],
    ['a zero value', { ...POLICY, value: 0 }, 'body.value: must be > 0'],
    ['a name over 255 characters', { ...POLICY, name: 'x'.repeat(256) }, 'body.name: must be a string of at most 255 characters, or null'],
    ['an unknown condition key', { ...POLICY, conditions: [{ key: 'model', value: 'gpt-4o' }] }, 'body.conditions.0.key: must be workspace_id, endpoint_type, api_key or metadata.<key>'],
    ['an empty condition value', { ...POLICY, conditions: [{ key: 'api_key', value: [] }] }, 'body.conditions.0.value: must be a non-empty string or a list of 1 to 100 non-empty strings'],
    ['an unknown group_by key', { ...POLICY, group_by: [{ key: 'endpoint_type' }] }, 'body.group_by.0.key: must be api_key, workspace_id, metadata.<key> or jwt.<claim>'],
    ['a group_by key twice', { ...POLICY, group_by: [{ key: 'api_key' }, { key: 'api_key' }] }, 'body.group_by.1.key: "api_key" is listed twice'],
    ['an unknown field', { ...POLICY, extra: true }, 'body.extra: is not an allowed key'],
  ];
  for (const [what, body, message] of invalid) {
    it(`refuses ${what} with a 400 naming the field`, async () => {
      const reply = await api(gw, 'POST', BASE, body);
      expect(reply.status).to.equal(400);
      expect(reply.json.error).to.deep.include({ message, type: 'invalid_request_error' });
    });
  }

  it('accepts a name of 255 characters, a metadata condition with a value list, and the four units', async () => {
    for (const unit of ['rpm', 'rph', 'rpd', 'rpw']) {
      const reply = await api(gw, 'POST', BASE, { ...POLICY, unit, name: 'n'.repeat(255), conditions: [{ key: 'metadata.team', value: ['a', 'b'], excludes: 'c' }] });
      expect(reply.status, reply.text).to.equal(200);
    }
  });

  it('validates a PUT body the same way', async () => {
    const id = await createPolicy(gw, POLICY);
    const reply = await api(gw, 'PUT', `${BASE}/${id}`, { conditions: [] });
    expect(reply.status).to.equal(400);
    expect(reply.json.error.message).to.equal('body.conditions: must have at least 1 item(s)');
  });

  describe('authorisation', () => {
    it('a workspace key creates in its own workspace, sees only its workspace, and 404s on others', async () => {
      const a = wsKey('ws-a');
      const idA = await createPolicy(gw, POLICY, a);
      expect((await api(gw, 'GET', `${BASE}/${idA}`, undefined, a)).json.workspace_id).to.equal('ws-a');
      expect((await api(gw, 'GET', `${BASE}/${idA}`, undefined, wsKey('ws-b'))).status).to.equal(404);
      expect((await api(gw, 'PUT', `${BASE}/${idA}`, { value: 1 }, wsKey('ws-b'))).status).to.equal(404);
      expect((await api(gw, 'DELETE', `${BASE}/${idA}`, undefined, wsKey('ws-b'))).status).to.equal(404);
      const listB = await api(gw, 'GET', BASE, undefined, wsKey('ws-b'));
      expect(listB.json.data.map((p: { id: string }) => p.id)).to.not.include(idA);
      const listA = await api(gw, 'GET', BASE, undefined, a);
      expect(listA.json.data.every((p: { workspace_id: string }) => p.workspace_id === 'ws-a')).to.equal(true);
      // The organisation owner sees it.
      expect((await api(gw, 'GET', `${BASE}/${idA}`)).status).to.equal(200);
    });

    it('refuses a workspace key writing into another workspace or organisation (403)', async () => {
      const other = await api(gw, 'POST', BASE, { ...POLICY, workspace_id: 'ws-b' }, wsKey('ws-a'));
      expect(other.status).to.equal(403);
      expect(other.json.error.type).to.equal('permission_error');
      const org = await api(gw, 'POST', BASE, { ...POLICY, organisation_id: '3c90c3cc-0d44-4b50-8888-8dd25736052a' }, wsKey('ws-a'));
      expect(org.status).to.equal(403);
      const list = await api(gw, 'GET', `${BASE}?workspace_id=ws-b`, undefined, wsKey('ws-a'));
      expect(list.status).to.equal(403);
      // A workspace_id condition may select only the key's own workspace.
      for (const value of ['ws-b', '*', ['ws-a', 'ws-b']]) {
        const selecting = await api(gw, 'POST', BASE, { ...POLICY, conditions: [{ key: 'workspace_id', value }] }, wsKey('ws-a'));
        expect(selecting.status, JSON.stringify(value)).to.equal(403);
      }
      expect((await api(gw, 'POST', BASE, { ...POLICY, conditions: [{ key: 'workspace_id', value: 'ws-a' }] }, wsKey('ws-a'))).status).to.equal(200);
    });

    it('an organisation key may name a workspace (id or slug); an explicit organisation_id equal to its own is accepted', async () => {
      const workspaceId = await aWorkspace(gw, 'ws-x');
      const organisation = (await api(gw, 'GET', `${BASE}/${await createPolicy(gw, POLICY)}`)).json.organisation_id;
      const created = await api(gw, 'POST', BASE, { ...POLICY, workspace_id: 'ws-x', organisation_id: organisation });
      expect(created.status, created.text).to.equal(200);
      expect((await api(gw, 'GET', `${BASE}/${created.json.id}`)).json.workspace_id).to.equal(workspaceId);
      if (workspaceId !== 'ws-x') {
        // With the control plane's directory, unknown workspaces are refused.
        const unknown = await api(gw, 'POST', BASE, { ...POLICY, workspace_id: 'no-such-workspace' });
        expect(unknown.status).to.equal(400);
        expect(unknown.json.error.message).to.equal('body.workspace_id: unknown workspace "no-such-workspace"');
      }
    });

    it('needs the rate_limits.<action> scope; members read but do not write', async () => {
      const reader: Caller = wsKey('ws-r', { scopes: ['rate_limits.read', 'rate_limits.list'] });
      const id = await createPolicy(gw, POLICY, wsKey('ws-r'));
      expect((await api(gw, 'GET', `${BASE}/${id}`, undefined, reader)).status).to.equal(200);
      expect((await api(gw, 'GET', BASE, undefined, reader)).status).to.equal(200);
      const denied = await api(gw, 'POST', BASE, POLICY, reader);
      expect(denied.status).to.equal(403);
      expect(denied.json.error.message).to.equal('the API key lacks the scope rate_limits.create');
      expect((await api(gw, 'GET', BASE, undefined, wsKey('ws-r', { scopes: ['completions.write'] }))).status).to.equal(403);

      const member: Caller = wsKey('ws-r', { role: 'member', type: 'workspace-user' });
      expect((await api(gw, 'GET', `${BASE}/${id}`, undefined, member)).status).to.equal(200);
      const write = await api(gw, 'PUT', `${BASE}/${id}`, { value: 1 }, member);
      expect(write.status).to.equal(403);
      expect(write.json.error.message).to.equal('workspace members may not update rate-limits policies');
      expect((await api(gw, 'PUT', `${BASE}/${id}`, { value: 1 }, wsKey('ws-r', { role: 'manager', type: 'workspace-user' }))).status).to.equal(200);
    });

    it('answers 401 without a gateway key', async () => {
      const res = await fetch(gw.url + BASE, { method: 'GET' });
      expect(res.status).to.equal(401);
    });
  });
});

describe('policy.rate-limits: routes without the control plane\'s directory', () => {
  let gw: TestGateway;

  before(async () => {
    gw = await startGateway({ composition: { plugins: [TestPrincipalPlugin, RateLimitsPlugin], disable: ['admin.workspaces'] } });
  });
  after(async () => {
    await gw?.stop();
  });

  it('takes workspace ids as given; organisation keys own policies in the workspace named "default"', async () => {
    expect(gw.gateway.runtime.services.has(DirectoryService)).to.equal(false);
    const own = await createPolicy(gw, POLICY);
    expect((await api(gw, 'GET', `${BASE}/${own}`)).json.workspace_id).to.equal('default');
    const named = await createPolicy(gw, { ...POLICY, workspace_id: 'anything', conditions: [{ key: 'workspace_id', value: ['w1', 'w2'] }] });
    expect((await api(gw, 'GET', `${BASE}/${named}`)).json).to.deep.include({ workspace_id: 'anything', conditions: [{ key: 'workspace_id', value: ['w1', 'w2'] }] });
    expect((await api(gw, 'POST', BASE, { ...POLICY, workspace_id: 'other' }, wsKey('mine'))).status).to.equal(403);
  });
});
