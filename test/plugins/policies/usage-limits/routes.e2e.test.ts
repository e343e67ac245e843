/** /v1/policies/usage-limits: create, read, list, update, archive; the schedule fields; validation. */
import { expect } from 'chai';
import sinon from 'sinon';
import type { TestGateway } from '../../../helpers/gateway.js';
import { api, BASE, createUsageLimit, startUsageGateway, type Caller } from './harness.js';

const T0 = Date.parse('2025-01-08T10:20:30.000Z'); // a Wednesday
const POLICY = {
  name: 'Monthly cost per key',
  conditions: [{ key: 'endpoint_type', value: 'chatComplete' }],
  group_by: [{ key: 'api_key' }],
  type: 'cost',
  credit_limit: 100,
  alert_threshold: 80,
  periodic_reset: 'monthly',
};

describe('policy.usage-limits: routes', () => {
  let gw: TestGateway;
  let clock: sinon.SinonFakeTimers;

  before(async () => {
    gw = await startUsageGateway();
  });
  after(async () => {
    await gw?.stop();
  });
  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: T0, toFake: ['Date'] });
  });
  afterEach(() => clock.restore());

  const view = async (id: string) => (await api(gw, 'GET', `${BASE}/${id}`)).json;

  it('creates a policy ({id, object}); GET answers it with the schedule fields', async () => {
    const created = await api(gw, 'POST', BASE, POLICY);
    expect(created.status).to.equal(200);
    expect(created.json).to.have.keys('id', 'object');
    expect(created.json.object).to.equal('policy_usage_limits');
    const got = await view(created.json.id);
    expect(got).to.deep.include({
      ...POLICY, id: created.json.id, object: 'policy_usage_limits', status: 'active',
      periodic_reset_days: null, next_usage_reset_at: '2025-02-01T00:00:00.000Z', last_reset_at: null,
      created_at: '2025-01-08T10:20:30.000Z', last_updated_at: '2025-01-08T10:20:30.000Z',
    });
  });

  it('next_usage_reset_at: the next Monday (weekly), the 1st (monthly), none (cumulative)', async () => {
    expect((await view(await createUsageLimit(gw, { ...POLICY, periodic_reset: 'weekly' }))).next_usage_reset_at).to.equal('2025-01-13T00:00:00.000Z');
    const cumulative = await view(await createUsageLimit(gw, { ...POLICY, periodic_reset: undefined }));
    expect(cumulative).to.deep.include({ periodic_reset: null, periodic_reset_days: null, next_usage_reset_at: null, last_reset_at: null });
  });

  it('periodic_reset_days: the first reset today\'s midnight + N days, or next_usage_reset_at normalised to UTC midnight', async () => {
    const byDefault = await view(await createUsageLimit(gw, { ...POLICY, periodic_reset: undefined, periodic_reset_days: 30 }));
    expect(byDefault).to.deep.include({ periodic_reset: null, periodic_reset_days: 30, next_usage_reset_at: '2025-02-07T00:00:00.000Z' });
    const given = await view(await createUsageLimit(gw, { ...POLICY, periodic_reset: undefined, periodic_reset_days: 7, next_usage_reset_at: '2025-01-20T15:45:00+02:00' }));
    expect(given.next_usage_reset_at).to.equal('2025-01-20T00:00:00.000Z');
    const dateOnly = await view(await createUsageLimit(gw, { ...POLICY, periodic_reset: undefined, periodic_reset_days: 1, next_usage_reset_at: '2025-01-09' }));
    expect(dateOnly.next_usage_reset_at).to.equal('2025-01-09T00:00:00.000Z');
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['periodic_reset with periodic_reset_days', { ...POLICY, periodic_reset_days: 30 }, 'body.periodic_reset_days: cannot be set together with periodic_reset (they are mutually exclusive)'],
    ['periodic_reset_days 0', { ...POLICY, periodic_reset: null, periodic_reset_days: 0 }, 'body.periodic_reset_days: must be an integer from 1 to 365, or null'],
    ['periodic_reset_days 366', { ...POLICY, periodic_reset: null, periodic_reset_days: 366 }, 'body.periodic_reset_days: must be an integer from 1 to 365, or null'],
    ['periodic_reset_days 1.5', { ...POLICY, periodic_reset: null, periodic_reset_days: 1.5 }, 'body.periodic_reset_days: must be an integer from 1 to 365, or null'],
    ['an unknown periodic_reset', { ...POLICY, periodic_reset: 'daily' }, 'body.periodic_reset: must be "weekly", "monthly" or null'],
    ['an alert_threshold at the limit', { ...POLICY, alert_threshold: 100 }, 'body.alert_threshold: must be less than credit_limit'],
    ['a negative credit_limit', { ...POLICY, credit_limit: -1 }, 'body.credit_limit: must be >= 0'],
    ['an unknown type', { ...POLICY, type: 'requests' }, 'body.type: must be one of "cost", "tokens"'],
    ['next_usage_reset_at without periodic_reset_days', { ...POLICY, next_usage_reset_at: '2025-02-01' }, 'body.next_usage_reset_at: needs periodic_reset_days'],
    ['a next_usage_reset_at that is no date', { ...POLICY, periodic_reset: null, periodic_reset_days: 3, next_usage_reset_at: 'soon' }, 'body.next_usage_reset_at: must be an ISO 8601 date or date-time within years 0000 to 9999'],
    ['a next_usage_reset_at past year 9999', { ...POLICY, periodic_reset: null, periodic_reset_days: 3, next_usage_reset_at: '+275760-09-13T00:00:00Z' }, 'body.next_usage_reset_at: must be an ISO 8601 date or date-time within years 0000 to 9999'],
    ['a credit_limit past 1e15', { ...POLICY, credit_limit: 1e300 }, 'body.credit_limit: must be <= 1000000000000000'],
    ['no conditions', { ...POLICY, conditions: [] }, 'body.conditions: must have at least 1 item(s)'],
    ['an unknown group_by key', { ...POLICY, group_by: [{ key: 'model' }] }, 'body.group_by.0.key: must be api_key, workspace_id, metadata.<key> or jwt.<claim>'],
  ];
  for (const [what, body, message] of invalid) {
    it(`refuses ${what} (400)`, async () => {
      const reply = await api(gw, 'POST', BASE, body);
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.equal(message);
    });
  }

  it('PUT: the mutual exclusion holds over the stored values; setting the other to null switches', async () => {
    const id = await createUsageLimit(gw, POLICY);
    const both = await api(gw, 'PUT', `${BASE}/${id}`, { periodic_reset_days: 10 });
    expect(both.status).to.equal(400);
    expect(both.json.error.message).to.equal('body.periodic_reset_days: cannot be set together with periodic_reset (they are mutually exclusive)');
    const switched = await api(gw, 'PUT', `${BASE}/${id}`, { periodic_reset: null, periodic_reset_days: 10 });
    expect(switched.status).to.equal(200);
    expect(switched.json).to.deep.include({
      periodic_reset: null, periodic_reset_days: 10, next_usage_reset_at: '2025-01-18T00:00:00.000Z', last_reset_at: '2025-01-08T10:20:30.000Z',
    });
    const threshold = await api(gw, 'PUT', `${BASE}/${id}`, { alert_threshold: 150 });
    expect(threshold.status).to.equal(400);
    expect(threshold.json.error.message).to.equal('body.alert_threshold: must be less than credit_limit');
    expect((await api(gw, 'PUT', `${BASE}/${id}`, { alert_threshold: 150, credit_limit: 200 })).json).to.deep.include({ alert_threshold: 150, credit_limit: 200 });
    expect((await api(gw, 'PUT', `${BASE}/${id}`, { alert_threshold: null })).json.alert_threshold).to.equal(null);
    const moved = await api(gw, 'PUT', `${BASE}/${id}`, { next_usage_reset_at: '2025-03-01T08:00:00Z' });
    expect(moved.json.next_usage_reset_at).to.equal('2025-03-01T00:00:00.000Z');
  });

  it('lists with pagination, exposing periodic_reset_days, next_usage_reset_at and last_reset_at; DELETE archives', async () => {
    const fresh = await startUsageGateway();
    try {
      // Lists are in creation order (created_at, then id): one millisecond apart.
      const ids: string[] = [];
      for (const extra of [{ name: 'a' }, { name: 'b', type: 'tokens', periodic_reset: null, periodic_reset_days: 2 }, { name: 'c' }]) {
        ids.push(await createUsageLimit(fresh, { ...POLICY, ...extra }));
        clock.tick(1);
      }
      const page = await api(fresh, 'GET', `${BASE}?page_size=2&current_page=0`);
      expect(page.json).to.deep.include({ object: 'list', total_count: 3, current_page: 0, page_size: 2 });
      expect(page.json.data[1]).to.deep.include({ name: 'b', periodic_reset_days: 2, next_usage_reset_at: '2025-01-10T00:00:00.000Z', last_reset_at: null });
      expect((await api(fresh, 'GET', `${BASE}?type=tokens`)).json.total_count).to.equal(1);
      const archived = await api(fresh, 'DELETE', `${BASE}/${ids[0]}`);
      expect(archived.json).to.deep.equal({ id: ids[0], object: 'policy_usage_limits', status: 'archived' });
      expect((await api(fresh, 'GET', `${BASE}/${ids[0]}`)).status).to.equal(404);
      expect((await api(fresh, 'GET', `${BASE}/${ids[0]}?status=archived`)).json.status).to.equal('archived');
      expect((await api(fresh, 'GET', BASE)).json.total_count).to.equal(2);
    } finally {
      await fresh.stop();
    }
  });

  it('authorises like the rate-limit routes: scopes, members read only, workspaces apart', async () => {
    const inA: Caller = { keyId: 'k-a', workspaceId: 'ws-a' };
    const id = await createUsageLimit(gw, POLICY, inA);
    expect((await api(gw, 'GET', `${BASE}/${id}`, undefined, { keyId: 'k-b', workspaceId: 'ws-b' })).status).to.equal(404);
    const member: Caller = { ...inA, role: 'member', type: 'workspace-user' };
    expect((await api(gw, 'GET', `${BASE}/${id}`, undefined, member)).status).to.equal(200);
    expect((await api(gw, 'PUT', `${BASE}/${id}`, { credit_limit: 1 }, member)).status).to.equal(403);
    const noScope = await api(gw, 'POST', BASE, POLICY, { ...inA, scopes: ['rate_limits.create'] });
    expect(noScope.status).to.equal(403);
    expect(noScope.json.error.message).to.equal('the API key lacks the scope usage_limits.create');
  });
});
