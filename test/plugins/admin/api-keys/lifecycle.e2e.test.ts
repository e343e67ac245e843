/**
 * The life cycle of a key on a clock moved by hand: manual rotation with its transition window,
 * scheduled rotation with the secret read once, expiry — seen through the admin routes and by an
 * OpenAI SDK client calling chat through the gateway.
 */
import { expect } from 'chai';
import OpenAI from 'openai';
import { startMockOpenAI, type MockOpenAI } from '../../../fixtures/mock-openai.js';
import { createKey, DAY, MINUTE, startControlPlane, type ControlPlane } from './helpers.js';

describe('admin.api-keys: key life cycle', () => {
  let cp: ControlPlane;
  let mock: MockOpenAI;

  before(async () => {
    mock = await startMockOpenAI();
    cp = await startControlPlane({ authOptions: { rotationCheckIntervalMs: 10 } });
  });
  after(async () => {
    await cp.stop();
    await mock.close();
  });

  const sdk = (key: string) => new OpenAI({
    apiKey: 'sk-provider',
    baseURL: cp.gw.url + '/v1',
    defaultHeaders: { 'x-gw-api-key': key, 'x-gw-provider': 'openai', 'x-gw-custom-host': `${mock.url}/v1` },
    maxRetries: 0,
  });
  const chat = (key: string) => sdk(key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
  const status = async (key: string) => {
    try {
      await chat(key);
      return 200;
    } catch (e) {
      expect(e).to.be.instanceOf(OpenAI.APIError);
      return (e as InstanceType<typeof OpenAI.APIError>).status;
    }
  };

  it('rotates: both secrets work during the transition window, then the old one gets 401', async () => {
    const created = await createKey(cp, { name: 'app', type: 'organisation-service' });
    expect(await status(created.key)).to.equal(200);
    const rotated = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { key_transition_period_ms: 40 * MINUTE });
    expect(rotated.status, rotated.text).to.equal(200);
    expect(rotated.json.key).to.be.a('string').and.not.equal(created.key);
    expect(rotated.json.last_reset_at).to.equal(new Date(cp.clock.now()).toISOString());
    expect(rotated.json.previous_key_valid_until).to.equal(new Date(cp.clock.now() + 40 * MINUTE).toISOString());
    expect(await status(rotated.json.key)).to.equal(200);
    expect(await status(created.key)).to.equal(200);

    cp.clock.advance(40 * MINUTE - 1000);
    expect(await status(created.key)).to.equal(200);
    cp.clock.advance(1000);
    const refused = await sdk(created.key).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e) => e);
    expect(refused).to.be.instanceOf(OpenAI.AuthenticationError);
    expect(refused.status).to.equal(401);
    expect(await status(rotated.json.key)).to.equal(200);
    expect((await cp.owner.get(`/v1/api-keys/${created.id}`)).json.previous_key_valid_until).to.equal(null);
  });

  it('uses 30 minutes when neither the request nor the key names a window, the policy\'s window otherwise', async () => {
    const plain = await createKey(cp, { name: 'plain', type: 'organisation-service' });
    const rotated = await cp.owner.post(`/v1/api-keys/${plain.id}/rotate`);
    expect(Date.parse(rotated.json.previous_key_valid_until) - cp.clock.now()).to.equal(30 * MINUTE);
    const withPolicy = await createKey(cp, { name: 'policy', type: 'organisation-service', rotation_policy: { rotation_period: 'monthly', key_transition_period_ms: 2 * 3600_000 } });
    const again = await cp.owner.post(`/v1/api-keys/${withPolicy.id}/rotate`, {});
    expect(Date.parse(again.json.previous_key_valid_until) - cp.clock.now()).to.equal(2 * 3600_000);
    // A manual rotation restarts the schedule.
    expect(Date.parse(again.json.rotation_policy.next_rotation_at) - cp.clock.now()).to.equal(30 * DAY);
  });

  it('refuses a transition window under 30 minutes and unknown rotate fields', async () => {
    const created = await createKey(cp, { name: 'short', type: 'organisation-service' });
    const short = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { key_transition_period_ms: 1_799_999 });
    expect(short.status).to.equal(400);
    expect(short.json.error.message).to.contain('body.key_transition_period_ms: must be an integer from 1800000 to 2592000000');
    const extra = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { now: true });
    expect(extra.json.error.message).to.contain('body.now: is not an allowed key');
    expect(await status(created.key)).to.equal(200);
  });

  it('does not rotate a deleted key', async () => {
    const created = await createKey(cp, { name: 'gone', type: 'organisation-service' });
    await cp.owner.del(`/v1/api-keys/${created.id}`);
    expect((await cp.owner.post(`/v1/api-keys/${created.id}/rotate`)).status).to.equal(404);
  });

  it('rotates on schedule; an admin reads the new secret once; the old one lasts the window', async () => {
    const created = await createKey(cp, { name: 'scheduled', type: 'organisation-service', rotation_policy: { rotation_period: 'weekly' } });
    expect(created.rotation_period_days).to.equal(7);
    const none = await cp.owner.get(`/v1/api-keys/${created.id}/pending-secret`);
    expect(none.status).to.equal(404);
    expect(none.json.error.code).to.equal('no_pending_secret');

    cp.clock.advance(7 * DAY + MINUTE);
    const record = await waitFor(async () => {
      const reply = await cp.owner.get(`/v1/api-keys/${created.id}`);
      return reply.json.has_pending_secret ? reply.json : undefined;
    });
    expect(record.last_reset_at).to.not.equal(null);
    expect(Date.parse(record.rotation_policy.next_rotation_at)).to.equal(Date.parse(created.rotation_policy.next_rotation_at) + 7 * DAY);

    const pending = await cp.owner.get(`/v1/api-keys/${created.id}/pending-secret`);
    expect(pending.status).to.equal(200);
    expect(pending.json).to.include({ id: created.id, object: 'api-key-secret' });
    expect((await cp.owner.get(`/v1/api-keys/${created.id}/pending-secret`)).status).to.equal(404);
    expect((await cp.owner.get(`/v1/api-keys/${created.id}`)).json.has_pending_secret).to.equal(false);

    expect(await status(pending.json.key)).to.equal(200);
    expect(await status(created.key)).to.equal(200);
    cp.clock.advance(30 * MINUTE);
    expect(await status(created.key)).to.equal(401);
    expect(await status(pending.json.key)).to.equal(200);
  });

  it('expires a key at its expiry: 401 from then on, cached or not', async () => {
    const created = await createKey(cp, { name: 'brief', type: 'organisation-service', ttl: 600 });
    expect(await status(created.key)).to.equal(200);
    cp.clock.advance(599_000);
    expect(await status(created.key)).to.equal(200);
    cp.clock.advance(1000);
    expect(await status(created.key)).to.equal(401);
    expect((await cp.owner.get(`/v1/api-keys/${created.id}`)).json.status).to.equal('active');
  });

  it('can extend an expiry before it passes', async () => {
    const created = await createKey(cp, { name: 'extended', type: 'organisation-service', ttl: 600 });
    await cp.owner.put(`/v1/api-keys/${created.id}`, { expires_at: null });
    cp.clock.advance(3600_000);
    expect(await status(created.key)).to.equal(200);
  });
});

/** Polls `probe` (the rotation timer runs every 10 ms) until it answers, for at most 2 s. */
async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}
