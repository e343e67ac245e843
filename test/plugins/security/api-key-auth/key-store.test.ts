/**
 * The key store on its own: migration of a table made before issue 8, verification with its cache
 * (expiry, deletion, transition windows), rotation, scheduled rotation and pending secrets.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../../../core/index.js';
import { ApiKeyStore, hashKey, MIGRATIONS } from '../../../../plugins/security/api-key-auth/key-store.js';
import { SqliteStore } from '../../../../plugins/stores/sqlite/sqlite-store.js';
import { AesGcmSecretBox } from '../../../../plugins/security/secret-box/secret-box.js';
import { DAY, ManualClock, MINUTE } from '../../admin/api-keys/helpers.js';

const HOUR = 60 * MINUTE;

describe('auth.api-key: key store', () => {
  let dir: string;
  let sqlite: SqliteStore;
  let clock: ManualClock;
  let sealer: SecretBox | undefined;

  const open = async (overrides: Partial<{ ttlMs: number; negativeTtlMs: number }> = {}) => {
    const keys = new ApiKeyStore(sqlite, {
      ttlMs: 24 * HOUR, negativeTtlMs: 24 * HOUR, maxEntries: 100, prefix: 'gw-', defaultTransitionMs: 30 * MINUTE,
      sealer: () => sealer, ...overrides,
    }, clock);
    await keys.init();
    return keys;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gw-keys-'));
    sqlite = new SqliteStore(join(dir, 'gw.db'));
    clock = new ManualClock();
    sealer = new AesGcmSecretBox(randomBytes(32));
  });
  afterEach(async () => {
    sqlite.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('adds its columns to a table made before, and keys stored then keep working', async () => {
    await sqlite.migrate('auth.api-keys', MIGRATIONS.slice(0, 1));
    await sqlite.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, workspace_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['old', 'old', 'workspace-service', hashKey('gw-old'), 'default', 'ws-1', '["*"]', Math.floor(clock.now() / 1000)],
    );
    const keys = await open();
    expect(await keys.verify('gw-old')).to.deep.include({ keyId: 'old', type: 'workspace-service', workspaceId: 'ws-1', organisationId: 'default' });
    const view = await keys.get('old');
    expect(view).to.deep.include({ status: 'active', rotation_policy: null, has_pending_secret: false, last_reset_at: null });
    // The insert other features' tests use still works on the migrated table.
    await sqlite.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, workspace_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ['later', 'later', 'workspace-service', hashKey('gw-later'), 'default', null, '[]', 1],
    );
    expect(await keys.verify('gw-later')).to.include({ keyId: 'later' });
  });

  it('answers from memory once a key is verified, and re-reads after a change on this instance', async () => {
    const keys = await open();
    const { key, record } = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: ['api_keys.read'] });
    const reads = sinon.spy(sqlite, 'get');
    expect(await keys.verify(key)).to.include({ keyId: record.id, type: 'organisation-service' });
    const afterFirst = reads.callCount;
    expect(await keys.verify(key)).to.include({ keyId: record.id });
    expect(reads.callCount).to.equal(afterFirst);
    await keys.delete(record.id);
    expect(await keys.verify(key)).to.equal(null);
    reads.restore();
  });

  it('never serves a cached verdict past the key\'s expiry', async () => {
    const keys = await open();
    const { key } = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [], expiresAtMs: clock.now() + 10 * MINUTE });
    expect(await keys.verify(key)).to.not.equal(null);
    clock.advance(10 * MINUTE - 1000);
    expect(await keys.verify(key)).to.not.equal(null);
    clock.advance(1000);
    expect(await keys.verify(key)).to.equal(null);
  });

  it('keeps the old secret valid for the transition window only, cache or not', async () => {
    const keys = await open();
    const created = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [] });
    expect(await keys.verify(created.key)).to.not.equal(null);
    const rotated = (await keys.rotate(created.record.id, 45 * MINUTE))!;
    expect(rotated.key).to.not.equal(created.key);
    expect(rotated.record.last_reset_at).to.be.a('string');
    expect(rotated.record.previous_key_valid_until).to.equal(new Date(Math.ceil((clock.now() + 45 * MINUTE) / 1000) * 1000).toISOString());
    expect(await keys.verify(rotated.key)).to.include({ keyId: created.record.id });
    expect(await keys.verify(created.key)).to.include({ keyId: created.record.id });
    clock.advance(45 * MINUTE - 1000);
    expect(await keys.verify(created.key)).to.not.equal(null);
    clock.advance(1001);
    expect(await keys.verify(created.key)).to.equal(null);
    expect(await keys.verify(rotated.key)).to.not.equal(null);
    expect((await keys.get(created.record.id))!.previous_key_valid_until).to.equal(null);
  });

  it('drops a still-open previous secret when a key rotates again', async () => {
    const keys = await open();
    const first = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [] });
    const second = (await keys.rotate(first.record.id))!;
    const third = (await keys.rotate(first.record.id))!;
    expect(await keys.verify(first.key)).to.equal(null);
    expect(await keys.verify(second.key)).to.not.equal(null);
    expect(await keys.verify(third.key)).to.not.equal(null);
  });

  it('applies one of two concurrent rotations of the same key', async () => {
    const keys = await open();
    const { record } = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [] });
    const results = await Promise.all([keys.rotate(record.id), keys.rotate(record.id)]);
    expect(results.filter(Boolean)).to.have.length(1);
  });

  it('rotates due keys on schedule, keeping the cadence, with the new secret readable once', async () => {
    const keys = await open();
    const start = clock.now();
    const { key, record } = await keys.create({
      name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [], rotation: { period: 'weekly', transitionMs: HOUR },
    });
    expect(record).to.deep.include({ rotation_period_days: 7 });
    expect(record.rotation_policy).to.deep.equal({ rotation_period: 'weekly', next_rotation_at: new Date(Math.floor((start + 7 * DAY) / 1000) * 1000).toISOString(), key_transition_period_ms: HOUR });
    expect(await keys.rotateDue()).to.deep.equal([]);
    clock.advance(7 * DAY + 5 * MINUTE);
    expect(await keys.rotateDue()).to.deep.equal([record.id]);
    const rotated = (await keys.get(record.id))!;
    expect(rotated.has_pending_secret).to.equal(true);
    expect(rotated.rotation_policy!.next_rotation_at).to.equal(new Date(Math.floor((start + 14 * DAY) / 1000) * 1000).toISOString());
    const secret = (await keys.takePendingSecret(record.id))!;
    expect(secret).to.match(/^gw-/);
    expect(await keys.takePendingSecret(record.id)).to.equal(undefined);
    expect((await keys.get(record.id))!.has_pending_secret).to.equal(false);
    expect(await keys.verify(secret)).to.include({ keyId: record.id });
    expect(await keys.verify(key)).to.not.equal(null);
    clock.advance(HOUR);
    expect(await keys.verify(key)).to.equal(null);
    // The pending secret is stored sealed, never in clear.
    const rows = await sqlite.all<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.to.contain(secret);
  });

  it('skips whole periods missed while the gateway was down', async () => {
    const keys = await open();
    const start = clock.now();
    const { record } = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [], rotation: { period: 'weekly' } });
    clock.advance(20 * DAY);
    await keys.rotateDue();
    expect((await keys.get(record.id))!.rotation_policy!.next_rotation_at).to.equal(new Date(Math.floor((start + 21 * DAY) / 1000) * 1000).toISOString());
  });

  it('needs a sealer for pending secrets', async () => {
    sealer = undefined;
    const keys = await open();
    expect(keys.canHoldPendingSecrets()).to.equal(false);
    const { record } = await keys.create({ name: 'k', type: 'organisation-service', organisationId: 'default', scopes: [] });
    let error: unknown;
    await keys.rotate(record.id, undefined, { pending: true }).catch((e) => (error = e));
    expect(String(error)).to.contain('security.secret-box');
  });

  it('refuses the keys of a suspended workspace, and accepts them again', async () => {
    const keys = await open();
    const { key } = await keys.create({ name: 'k', type: 'workspace-service', organisationId: 'default', workspaceId: 'ws-1', scopes: [] });
    expect(await keys.verify(key)).to.not.equal(null);
    keys.suspendWorkspace('ws-1', true);
    expect(await keys.verify(key)).to.equal(null);
    keys.suspendWorkspace('ws-1', false);
    expect(await keys.verify(key)).to.not.equal(null);
  });

  it('deletes a user\'s keys and keeps their role in step with the membership', async () => {
    const keys = await open();
    const a = await keys.create({ name: 'a', type: 'workspace-user', organisationId: 'default', workspaceId: 'ws-1', userId: 'u1', role: 'member', scopes: [] });
    const b = await keys.create({ name: 'b', type: 'workspace-user', organisationId: 'default', workspaceId: 'ws-2', userId: 'u1', role: 'member', scopes: [] });
    expect(await keys.verify(a.key)).to.include({ role: 'member', userId: 'u1', workspaceId: 'ws-1' });
    await keys.setUserRole('u1', 'ws-1', 'manager');
    expect(await keys.verify(a.key)).to.include({ role: 'manager' });
    expect(await keys.deleteUserKeys('u1', 'ws-1')).to.equal(1);
    expect(await keys.verify(a.key)).to.equal(null);
    expect(await keys.verify(b.key)).to.not.equal(null);
    expect(await keys.deleteUserKeys('u1')).to.equal(1);
    expect(await keys.verify(b.key)).to.equal(null);
  });

  it('gives principals the documented roles', async () => {
    const keys = await open();
    await keys.insertOwnerKey('gw-owner', 'bootstrap');
    expect(await keys.verify('gw-owner')).to.include({ type: 'organisation-owner', role: 'owner', organisationId: 'default' });
    const admin = await keys.create({ name: 'a', type: 'organisation-service', organisationId: 'default', scopes: ['*'] });
    expect(await keys.verify(admin.key)).to.include({ role: 'admin' });
    const narrow = await keys.create({ name: 'n', type: 'organisation-service', organisationId: 'default', scopes: ['api_keys.read'] });
    expect((await keys.verify(narrow.key))!.role).to.equal(undefined);
    expect(await keys.ownerOrganisationId()).to.equal('default');
  });
});
