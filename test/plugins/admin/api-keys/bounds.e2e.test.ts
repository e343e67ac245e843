/**
 * Absurd durations on the key routes: refused with a 400 naming the field and its bounds before
 * anything is written, so one request cannot leave a date that breaks the organisation's key list.
 */
import { expect } from 'chai';
import { createKey, DAY, startControlPlane, type ControlPlane } from './helpers.js';
import { withRecords } from '../../../helpers/records.js';

const TWO_TO_53 = 2 ** 53;
const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600;

describe('admin.api-keys: bounds on durations', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startControlPlane();
  });
  after(async () => {
    await cp.stop();
  });

  const keyCount = async (): Promise<number> => {
    const list = await cp.owner.get('/v1/api-keys?status=active,deleted');
    expect(list.status, list.text).to.equal(200);
    return list.json.total_count;
  };

  it('rotate with key_transition_period_ms 2^53: 400, and the key and the list stay readable', async () => {
    const created = await createKey(cp, { name: 'huge-window', type: 'organisation-service' });
    const reply = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { key_transition_period_ms: TWO_TO_53 });
    expect(reply.status, reply.text).to.equal(400);
    expect(reply.json.error).to.include({ param: 'key_transition_period_ms', code: 'invalid_body', type: 'invalid_request_error' });
    expect(reply.json.error.message).to.equal('body.key_transition_period_ms: must be an integer from 1800000 to 2592000000 (milliseconds: 30 minutes to 30 days)');

    const list = await cp.owner.get('/v1/api-keys');
    expect(list.status, list.text).to.equal(200);
    const one = await cp.owner.get(`/v1/api-keys/${created.id}`);
    expect(one.status).to.equal(200);
    expect(one.json.last_reset_at, 'not rotated').to.equal(null);
    expect(one.json.previous_key_valid_until).to.equal(null);
  });

  it('rotate accepts exactly 30 days and refuses one millisecond more', async () => {
    const created = await createKey(cp, { name: 'month-window', type: 'organisation-service' });
    const over = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { key_transition_period_ms: 30 * DAY + 1 });
    expect(over.status, over.text).to.equal(400);
    const max = await cp.owner.post(`/v1/api-keys/${created.id}/rotate`, { key_transition_period_ms: 30 * DAY });
    expect(max.status, max.text).to.equal(200);
    expect(max.json.previous_key_valid_until).to.equal(new Date(cp.clock.now() + 30 * DAY).toISOString());
  });

  it('create with ttl 2^53 - 1: 400 and no key added', async () => {
    const before = await keyCount();
    const reply = await cp.owner.post('/v1/api-keys', { name: 'forever', type: 'organisation-service', ttl: Number.MAX_SAFE_INTEGER });
    expect(reply.status, reply.text).to.equal(400);
    expect(reply.json.error).to.include({ param: 'ttl', code: 'invalid_body' });
    expect(reply.json.error.message).to.equal(`body.ttl: must be an integer from 60 to ${TEN_YEARS_SECONDS} (seconds: 1 minute to 10 years)`);
    expect(await keyCount()).to.equal(before);
  });

  it('create with a ttl of exactly 10 years: 200 with the expiry 10 years on', async () => {
    const created = await createKey(cp, { name: 'decade', type: 'organisation-service', ttl: TEN_YEARS_SECONDS });
    expect(created.expires_at).to.equal(new Date(Math.floor(cp.clock.now() / 1000) * 1000 + TEN_YEARS_SECONDS * 1000).toISOString());
  });

  it('create with a rotation policy whose transition is 2^53: 400 naming the nested field, no key added', async () => {
    const before = await keyCount();
    const reply = await cp.owner.post('/v1/api-keys', {
      name: 'policy', type: 'organisation-service', rotation_policy: { rotation_period: 'weekly', key_transition_period_ms: TWO_TO_53 },
    });
    expect(reply.status, reply.text).to.equal(400);
    expect(reply.json.error.param).to.equal('rotation_policy.key_transition_period_ms');
    expect(await keyCount()).to.equal(before);
  });

  it('a non-integer or negative ttl is refused with the same rule', async () => {
    for (const ttl of [3600.5, -1, 1e300]) {
      const reply = await cp.owner.post('/v1/api-keys', { name: 'odd', type: 'organisation-service', ttl });
      expect(reply.status, `ttl ${ttl}: ${reply.text}`).to.equal(400);
      expect(reply.json.error.message).to.contain('body.ttl: must be an integer from 60 to');
    }
  });

  it('organisation settings: user_api_key_ttl 2^53 - 1 is a 400 and the setting keeps its value', async () => {
    const reply = await cp.owner.put('/v1/organisation/settings', { user_api_key_ttl: Number.MAX_SAFE_INTEGER });
    expect(reply.status, reply.text).to.equal(400);
    expect(reply.json.error.param).to.equal('user_api_key_ttl');
    expect(reply.json.error.message).to.contain(`<= ${TEN_YEARS_SECONDS}`);
    const settings = await cp.owner.get('/v1/organisation/settings');
    expect(settings.status).to.equal(200);
    expect(JSON.stringify(settings.json)).to.contain('"user_api_key_ttl":null');
  });
});

describe('admin.api-keys: a date stored before the bounds existed', () => {
  let cp: ControlPlane;

  before(async () => {
    cp = await startControlPlane();
  });
  after(async () => {
    await cp.stop();
  });

  it('shows as null instead of making the whole list a 500', async () => {
    const created = await createKey(cp, { name: 'legacy', type: 'organisation-service' });
    // What a rotation with a 2^53 ms window stored before: seconds far past year 275760.
    await withRecords(cp.gw.dataDir, (records) => records.run(
      'UPDATE api_keys SET previous_valid_until = ?, previous_key_hash = ? WHERE id = ?', [Math.ceil(TWO_TO_53 / 1000), 'legacy-hash', created.id],
    ));
    const list = await cp.owner.get('/v1/api-keys');
    expect(list.status, list.text).to.equal(200);
    const legacy = list.json.data.find((k: { id: string }) => k.id === created.id);
    expect(legacy.previous_key_valid_until).to.equal(null);
    expect(legacy.created_at).to.be.a('string');
  });
});
