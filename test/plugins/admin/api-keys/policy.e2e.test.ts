/**
 * The organisation's policy on workspace-user keys (spec §2.3 v1.15, §7): the enforced rotation
 * period is given to keys without one and a different explicit period is a 400 on create and
 * update; user_api_key_ttl gives keys without an expiry one.
 */
import { expect } from 'chai';
import { createKey, DAY, defaultWorkspaceId, member, startControlPlane, type ControlPlane } from './helpers.js';

describe('admin.api-keys: organisation policy for workspace-user keys', () => {
  let cp: ControlPlane;
  let ws: string;
  let userId: string;

  before(async () => {
    cp = await startControlPlane();
    ws = await defaultWorkspaceId(cp);
    userId = (await member(cp, ws, 'member')).userId;
    const put = await cp.owner.put('/v1/organisation/settings', { user_api_key_rotation_period: 'weekly', user_api_key_ttl: 86_400 });
    expect(put.status, put.text).to.equal(200);
  });
  after(async () => {
    await cp.stop();
  });

  const userKeyBody = (extra: Record<string, unknown> = {}) => ({ name: 'u', type: 'workspace-user', workspace_id: ws, user_id: userId, ...extra });

  it('gives a key without a policy the enforced period, and the ttl as expiry', async () => {
    const key = await createKey(cp, userKeyBody());
    expect(key.rotation_policy.rotation_period).to.equal('weekly');
    expect(key.rotation_period_days).to.equal(7);
    expect(Date.parse(key.rotation_policy.next_rotation_at) - cp.clock.now()).to.equal(7 * DAY);
    expect(Date.parse(key.expires_at) - cp.clock.now()).to.equal(DAY);
  });

  it('accepts the enforced period named explicitly, with its own window and an explicit expiry', async () => {
    const key = await createKey(cp, userKeyBody({ rotation_policy: { rotation_period: 'weekly', key_transition_period_ms: 3_600_000 }, ttl: 120 }));
    expect(key.rotation_policy).to.deep.include({ rotation_period: 'weekly', key_transition_period_ms: 3_600_000 });
    expect(Date.parse(key.expires_at) - cp.clock.now()).to.equal(120_000);
  });

  it('refuses a different period on create with a 400', async () => {
    const reply = await cp.owner.post('/v1/api-keys', userKeyBody({ rotation_policy: { rotation_period: 'monthly' } }));
    expect(reply.status).to.equal(400);
    expect(reply.json.error).to.deep.include({ param: 'rotation_policy.rotation_period', code: 'invalid_body' });
    expect(reply.json.error.message).to.contain('must be "weekly"');
  });

  it('refuses a different period, or removing the policy, on update', async () => {
    const key = await createKey(cp, userKeyBody());
    const monthly = await cp.owner.put(`/v1/api-keys/${key.id}`, { rotation_policy: { rotation_period: 'monthly' } });
    expect(monthly.status).to.equal(400);
    expect(monthly.json.error.message).to.contain('user_api_key_rotation_period');
    const removed = await cp.owner.put(`/v1/api-keys/${key.id}`, { rotation_policy: null });
    expect(removed.status).to.equal(400);
    const same = await cp.owner.put(`/v1/api-keys/${key.id}`, { rotation_policy: { rotation_period: 'weekly', key_transition_period_ms: 7_200_000 } });
    expect(same.status, same.text).to.equal(200);
    expect(same.json.rotation_policy.key_transition_period_ms).to.equal(7_200_000);
  });

  it('leaves service keys to their own policy', async () => {
    const service = await createKey(cp, { name: 's', type: 'workspace-service', workspace_id: ws, rotation_policy: { rotation_period: 'monthly' } });
    expect(service.rotation_policy.rotation_period).to.equal('monthly');
    expect(service.expires_at).to.equal(null);
    const plain = await createKey(cp, { name: 's2', type: 'organisation-service' });
    expect(plain.rotation_policy).to.equal(null);
  });

  it('applies a policy set later to keys made from then on only', async () => {
    await cp.owner.put('/v1/organisation/settings', { user_api_key_rotation_period: null, user_api_key_ttl: null });
    const free = await createKey(cp, userKeyBody({ rotation_policy: { rotation_period: 'monthly' } }));
    expect(free.rotation_policy.rotation_period).to.equal('monthly');
    expect(free.expires_at).to.equal(null);
    await cp.owner.put('/v1/organisation/settings', { user_api_key_rotation_period: 'weekly' });
    expect((await cp.owner.get(`/v1/api-keys/${free.id}`)).json.rotation_policy.rotation_period).to.equal('monthly');
    // Changing that key now has to follow the enforced period.
    const rename = await cp.owner.put(`/v1/api-keys/${free.id}`, { name: 'renamed' });
    expect(rename.status).to.equal(200);
    expect((await cp.owner.put(`/v1/api-keys/${free.id}`, { rotation_policy: { key_transition_period_ms: 1_800_000 } })).json.rotation_policy.rotation_period).to.equal('weekly');
  });
});
