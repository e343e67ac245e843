/** /v1/api-keys: create, read, list, update, delete — happy paths and validation errors. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Services } from '../../../../core/index.js';
import { TEST_API_KEY } from '../../../helpers/gateway.js';
import { createKey, DAY, defaultWorkspaceId, member, MINUTE, startControlPlane, type ControlPlane } from './helpers.js';

describe('admin.api-keys: routes', () => {
  let cp: ControlPlane;
  let ws: string;

  before(async () => {
    cp = await startControlPlane({ env: { API_KEY_PREFIX: 'acme-' } });
    ws = await defaultWorkspaceId(cp);
  });
  after(async () => {
    await cp.stop();
  });

  describe('POST /v1/api-keys', () => {
    it('creates an organisation-service key: the record plus its secret, which works at once', async () => {
      const reply = await cp.owner.post('/v1/api-keys', { name: 'ci', type: 'organisation-service', scopes: ['api_keys.read', 'workspaces.*'] });
      expect(reply.status).to.equal(200);
      expect(reply.json).to.deep.include({
        object: 'api-key', name: 'ci', type: 'organisation-service', organisation_id: 'default', workspace_id: null, user_id: null,
        scopes: ['api_keys.read', 'workspaces.*'], status: 'active', expires_at: null, rotation_policy: null, has_pending_secret: false,
      });
      expect(reply.json.id).to.match(/^[0-9a-f-]{36}$/);
      expect(reply.json.created_at).to.match(/^\d{4}-\d{2}-\d{2}T/);
      // API_KEY_PREFIX prefixes new secrets.
      expect(reply.json.key).to.match(/^acme-[A-Za-z0-9_-]{43}$/);
      expect((await cp.as(reply.json.key).get(`/v1/api-keys/${reply.json.id}`)).status).to.equal(200);
    });

    it('creates workspace-service and workspace-user keys, naming the workspace by id or slug', async () => {
      const service = await createKey(cp, { name: 'svc', type: 'workspace-service', workspace_id: 'default', scopes: ['api_keys.read'] });
      expect(service).to.deep.include({ type: 'workspace-service', workspace_id: ws, user_id: null });
      const { userId } = await member(cp, ws, 'MANAGER');
      const user = await createKey(cp, { name: 'usr', type: 'workspace-user', workspace_id: ws, user_id: userId });
      expect(user).to.deep.include({ type: 'workspace-user', workspace_id: ws, user_id: userId, role: 'manager', scopes: [] });
    });

    it('sets an expiry from expires_at or ttl, and a rotation policy', async () => {
      const at = wholeSecond(cp.clock.now() + 2 * DAY);
      expect((await createKey(cp, { name: 'e', type: 'organisation-service', expires_at: at })).expires_at).to.equal(at);
      const ttl = await createKey(cp, { name: 't', type: 'organisation-service', ttl: 3600 });
      expect(Date.parse(ttl.expires_at) - cp.clock.now()).to.be.within(3599_000, 3600_000);
      const next = wholeSecond(cp.clock.now() + 3 * DAY);
      const rotating = await createKey(cp, {
        name: 'r', type: 'organisation-service', rotation_policy: { rotation_period: 'monthly', next_rotation_at: next, key_transition_period_ms: 3_600_000 },
      });
      expect(rotating.rotation_policy).to.deep.equal({ rotation_period: 'monthly', next_rotation_at: next, key_transition_period_ms: 3_600_000 });
      expect(rotating.rotation_period_days).to.equal(30);
    });

    const invalid: [string, Record<string, unknown>, string][] = [
      ['no name', { type: 'organisation-service' }, 'body.name: is required'],
      ['an unknown type', { name: 'x', type: 'organisation-owner' }, 'body.type: must be one of'],
      ['a malformed scope', { name: 'x', type: 'organisation-service', scopes: ['Bad Scope'] }, 'body.scopes.0: must be a scope'],
      ['an unknown field', { name: 'x', type: 'organisation-service', colour: 'red' }, 'body.colour: is not an allowed key'],
      ['ttl and expires_at', { name: 'x', type: 'organisation-service', ttl: 600, expires_at: '2999-01-01T00:00:00Z' }, 'body.ttl: cannot be combined with expires_at'],
      ['a ttl under a minute', { name: 'x', type: 'organisation-service', ttl: 30 }, 'body.ttl: must be an integer from 60 to 315360000'],
      ['an expiry in the past', { name: 'x', type: 'organisation-service', expires_at: '2001-01-01T00:00:00Z' }, 'body.expires_at: must be in the future'],
      ['an expiry that is not a date', { name: 'x', type: 'organisation-service', expires_at: 'tomorrow' }, 'body.expires_at: must be an ISO 8601 date-time'],
      ['an impossible date', { name: 'x', type: 'organisation-service', expires_at: '2999-02-31T00:00:00Z' }, 'body.expires_at: is not a valid date-time'],
      ['a transition under 30 minutes', { name: 'x', type: 'organisation-service', rotation_policy: { rotation_period: 'weekly', key_transition_period_ms: 60_000 } }, 'body.rotation_policy.key_transition_period_ms: must be an integer from 1800000 to 2592000000'],
      ['a policy without a period', { name: 'x', type: 'organisation-service', rotation_policy: { key_transition_period_ms: 1_800_000 } }, 'body.rotation_policy.rotation_period: is required'],
      ['a daily period', { name: 'x', type: 'organisation-service', rotation_policy: { rotation_period: 'daily' } }, 'body.rotation_policy.rotation_period: must be one of "weekly", "monthly"'],
      ['a past next rotation', { name: 'x', type: 'organisation-service', rotation_policy: { rotation_period: 'weekly', next_rotation_at: '2001-01-01T00:00:00Z' } }, 'body.rotation_policy.next_rotation_at: must be in the future'],
      ['a workspace on an organisation key', { name: 'x', type: 'organisation-service', workspace_id: 'default' }, 'body.workspace_id: is not allowed'],
      ['a workspace key without workspace', { name: 'x', type: 'workspace-service' }, 'body.workspace_id: is required'],
      ['an unknown workspace', { name: 'x', type: 'workspace-service', workspace_id: 'nope' }, 'body.workspace_id: no workspace "nope"'],
      ['a user on a service key', { name: 'x', type: 'workspace-service', workspace_id: 'default', user_id: 'u' }, 'body.user_id: is only allowed on a workspace-user key'],
      ['a user key without user', { name: 'x', type: 'workspace-user', workspace_id: 'default' }, 'body.user_id: is required'],
      ['a user who is not a member', { name: 'x', type: 'workspace-user', workspace_id: 'default', user_id: randomUUID() }, 'is not a member of workspace'],
    ];
    for (const [what, body, message] of invalid) {
      it(`refuses ${what} with a 400 naming the field`, async () => {
        const reply = await cp.owner.post('/v1/api-keys', body);
        expect(reply.status, reply.text).to.equal(400);
        expect(reply.json.error.message).to.contain(message);
        expect(reply.json.error.type).to.equal('invalid_request_error');
      });
    }

    it('refuses a body that is not an object', async () => {
      expect((await cp.owner.post('/v1/api-keys', [1])).status).to.equal(400);
      expect((await cp.owner.post('/v1/api-keys')).json.error.message).to.contain('body.name: is required');
    });

    it('refuses a key in an archived workspace', async () => {
      const made = await cp.owner.post('/v1/workspaces', { name: 'Short lived' });
      await cp.owner.del(`/v1/workspaces/${made.json.id}`);
      const reply = await cp.owner.post('/v1/api-keys', { name: 'x', type: 'workspace-service', workspace_id: made.json.id });
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.contain('is archived');
    });
  });

  describe('GET, PUT, DELETE /v1/api-keys/:id', () => {
    it('reads one key without its secret', async () => {
      const created = await createKey(cp, { name: 'read-me', type: 'organisation-service', scopes: ['api_keys.read'] });
      const reply = await cp.owner.get(`/v1/api-keys/${created.id}`);
      expect(reply.status).to.equal(200);
      const { key: _secret, ...record } = created;
      expect(reply.json).to.deep.equal(record);
      expect(reply.text).not.to.contain(created.key);
    });

    it('answers 404 for an unknown id', async () => {
      const reply = await cp.owner.get(`/v1/api-keys/${randomUUID()}`);
      expect(reply.status).to.equal(404);
      expect(reply.json.error.code).to.equal('api_key_not_found');
      expect((await cp.owner.put(`/v1/api-keys/${randomUUID()}`, { name: 'x' })).status).to.equal(404);
      expect((await cp.owner.del(`/v1/api-keys/${randomUUID()}`)).status).to.equal(404);
      expect((await cp.owner.post(`/v1/api-keys/${randomUUID()}/rotate`)).status).to.equal(404);
    });

    it('updates name, scopes, expiry and policy; null clears expiry and policy', async () => {
      const created = await createKey(cp, { name: 'before', type: 'organisation-service', ttl: 600 });
      const updated = await cp.owner.put(`/v1/api-keys/${created.id}`, {
        name: 'after', scopes: ['api_keys.read'], rotation_policy: { rotation_period: 'weekly' },
      });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.json).to.deep.include({ name: 'after', scopes: ['api_keys.read'], rotation_period_days: 7 });
      expect(updated.json.rotation_policy.rotation_period).to.equal('weekly');
      // Fields left out of a policy keep their values.
      const transition = await cp.owner.put(`/v1/api-keys/${created.id}`, { rotation_policy: { key_transition_period_ms: 7_200_000 } });
      expect(transition.json.rotation_policy).to.deep.include({ rotation_period: 'weekly', next_rotation_at: updated.json.rotation_policy.next_rotation_at, key_transition_period_ms: 7_200_000 });
      const cleared = await cp.owner.put(`/v1/api-keys/${created.id}`, { expires_at: null, rotation_policy: null });
      expect(cleared.json).to.deep.include({ expires_at: null, rotation_policy: null, rotation_period_days: null });
      expect(Date.parse(cleared.json.last_updated_at)).to.be.at.least(Date.parse(created.created_at));
    });

    it('refuses an empty or invalid update with a 400', async () => {
      const created = await createKey(cp, { name: 'u', type: 'organisation-service' });
      expect((await cp.owner.put(`/v1/api-keys/${created.id}`, {})).json.error.message).to.contain('must have at least 1 key');
      expect((await cp.owner.put(`/v1/api-keys/${created.id}`, { type: 'workspace-service' })).json.error.message).to.contain('body.type: is not an allowed key');
      expect((await cp.owner.put(`/v1/api-keys/${created.id}`, { expires_at: '2001-01-01T00:00:00Z' })).json.error.message).to.contain('must be in the future');
    });

    it('deletes a key: 401 at once, the record stays with status deleted', async () => {
      const created = await createKey(cp, { name: 'doomed', type: 'organisation-service', scopes: ['api_keys.read'] });
      const me = cp.as(created.key);
      expect((await me.get('/v1/api-keys/' + created.id)).status).to.equal(200);
      const deleted = await cp.owner.del(`/v1/api-keys/${created.id}`);
      expect(deleted.json).to.deep.equal({ id: created.id, object: 'api-key', deleted: true });
      const refused = await me.get('/v1/api-keys/' + created.id);
      expect(refused.status).to.equal(401);
      expect(refused.json.error.type).to.equal('authentication_error');
      expect((await cp.owner.get(`/v1/api-keys/${created.id}`)).json.status).to.equal('deleted');
      expect((await cp.owner.del(`/v1/api-keys/${created.id}`)).status).to.equal(404);
      expect((await cp.owner.put(`/v1/api-keys/${created.id}`, { name: 'x' })).status).to.equal(404);
    });

    it('keeps the organisation owner key: no delete, no change of scopes', async () => {
      const owner = (await cp.owner.get('/v1/api-keys?type=organisation-owner')).json.data[0];
      expect(owner).to.deep.include({ type: 'organisation-owner', role: 'owner', scopes: ['*'] });
      const del = await cp.owner.del(`/v1/api-keys/${owner.id}`);
      expect(del.status).to.equal(400);
      expect(del.json.error.code).to.equal('owner_key');
      expect((await cp.owner.put(`/v1/api-keys/${owner.id}`, { scopes: [] })).status).to.equal(400);
      expect((await cp.owner.put(`/v1/api-keys/${owner.id}`, { name: 'the owner' })).json.name).to.equal('the owner');
    });
  });

  describe('GET /v1/api-keys', () => {
    let ids: string[];
    let listWs: string;

    before(async () => {
      listWs = (await cp.owner.post('/v1/workspaces', { name: 'Listing' })).json.id;
      ids = [];
      for (let i = 0; i < 5; i++) ids.push((await createKey(cp, { name: `l${i}`, type: 'workspace-service', workspace_id: listWs })).id);
      await cp.owner.del(`/v1/api-keys/${ids[4]}`);
    });

    it('filters by workspace (id or slug), type and status, with total_count', async () => {
      const active = await cp.owner.get(`/v1/api-keys?workspace_id=${listWs}`);
      expect(active.json).to.deep.include({ object: 'list', total_count: 4, current_page: 0, page_size: 50 });
      expect(active.json.data.map((k: { id: string }) => k.id)).to.deep.equal(ids.slice(0, 4));
      const bySlug = await cp.owner.get('/v1/api-keys?workspace_id=listing&type=workspace-service&status=active,deleted');
      expect(bySlug.json.total_count).to.equal(5);
      const deleted = await cp.owner.get(`/v1/api-keys?workspace_id=${listWs}&status=deleted`);
      expect(deleted.json.data.map((k: { id: string }) => k.id)).to.deep.equal([ids[4]]);
      const none = await cp.owner.get(`/v1/api-keys?workspace_id=${listWs}&type=workspace-user`);
      expect(none.json).to.deep.include({ total_count: 0, data: [] });
    });

    it('pages with current_page (from 0) and page_size', async () => {
      const first = await cp.owner.get(`/v1/api-keys?workspace_id=${listWs}&page_size=3`);
      const second = await cp.owner.get(`/v1/api-keys?workspace_id=${listWs}&page_size=3&current_page=1`);
      expect(first.json.data.map((k: { id: string }) => k.id)).to.deep.equal(ids.slice(0, 3));
      expect(second.json).to.deep.include({ total_count: 4, current_page: 1, page_size: 3 });
      expect(second.json.data.map((k: { id: string }) => k.id)).to.deep.equal([ids[3]]);
    });

    it('refuses bad query values with a 400 naming them', async () => {
      for (const [q, name] of [['page_size=0', 'page_size'], ['page_size=101', 'page_size'], ['current_page=-1', 'current_page'], ['status=gone', 'status'], ['type=root', 'type'], ['type=workspace-user,workspace-service', 'type']]) {
        const reply = await cp.owner.get(`/v1/api-keys?${q}`);
        expect(reply.status, q).to.equal(400);
        expect(reply.json.error.param).to.equal(name);
      }
    });

    it('lists no secret', async () => {
      const reply = await cp.owner.get('/v1/api-keys?status=active,deleted&page_size=100');
      expect(reply.text).not.to.contain(TEST_API_KEY);
      for (const key of reply.json.data) expect(key).not.to.have.property('key');
    });
  });

  it('stores secrets only as hashes', async () => {
    const created = await createKey(cp, { name: 'hashed', type: 'organisation-service' });
    const store = cp.gw.gateway.runtime.services.get(Services.Records);
    const rows = await store.all<Record<string, unknown>>('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    expect(dump).not.to.contain(created.key);
    expect(dump).not.to.contain(TEST_API_KEY);
  });

  it('keeps listing fast enough for a minute of keys', async () => {
    // A sanity bound, not a benchmark: the list of a few dozen keys answers promptly.
    const started = performance.now();
    await cp.owner.get('/v1/api-keys?page_size=100');
    expect(performance.now() - started).to.be.below(MINUTE);
  });
});

function wholeSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}
