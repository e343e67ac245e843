/**
 * Gateway API keys: verification (cached, see verdict-cache.ts) and their life cycle: create,
 * update, delete, rotate with a transition window during which the previous secret still works,
 * scheduled rotation, and secrets kept sealed until read once when nobody was there to receive them.
 * Provided as Services.KeyStore; the admin plugins reach it through api.services.
 */
import {
  isGatewayError, isDateInRange, timeOrderedId,
  type ApiKeyView, type Changes, type Clock, type Issued, type IssueOptions, type KeyFilter, type KeyPatch, type KeyStore, type NewKey, type Principal, type RecordStore, type RotationInput, type SecretBox,
} from '../../../core/index.js';
import {
  DAY_MS, KEY_COLUMNS, ROTATION_PERIOD_DAYS, seconds, toPrincipal, toView,
  type KeyRow,
} from './key-rows.js';
import { MIGRATIONS } from './migrations.js';
import { generateSecret, hashKey } from './secrets.js';
import { VerdictCache } from './verdict-cache.js';
import type { KeyStoreOptions } from './key-types.js';

export { hashKey, generateSecret } from './secrets.js';
export { MIGRATIONS } from './migrations.js';
export type * from './key-types.js';

const MAX_DUE_PER_CHECK = 100;
/** The invalidation-bus topic of key writes (create, update, delete, rotate). */
export const KEYS_TOPIC = 'api-keys';
export const DEFAULT_ORGANISATION_ID = 'default';

export class ApiKeyStore implements KeyStore {
  readonly #cache: VerdictCache;
  /** Workspaces whose keys are refused (archived), told by admin.workspaces. */
  readonly #suspended = new Set<string>();
  /** Clears this instance's verdicts, and every other's once followChanges() gave it the bus. */
  #publish: () => void = () => this.invalidate();

  constructor(
    private readonly store: RecordStore,
    private readonly options: KeyStoreOptions,
    private readonly clock: Clock,
  ) {
    this.#cache = new VerdictCache(options);
  }

  async init(): Promise<void> {
    await this.store.migrate('auth.api-keys', MIGRATIONS);
  }

  now(): number {
    return this.clock.now();
  }

  async count(): Promise<number> {
    const row = await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys');
    return row?.n ?? 0;
  }

  /**
   * Stores a new organisation-owner key with the given secret. The first organisation's id is
   * `default` (as in stores made before organisations had records; records of other features use it).
   */
  async insertOwnerKey(secret: string, name: string, organisationId = DEFAULT_ORGANISATION_ID): Promise<string> {
    const id = timeOrderedId();
    const now = seconds(this.clock.now());
    await this.store.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, scopes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [id, name, 'organisation-owner', hashKey(secret), organisationId, '["*"]', now, now],
    );
    return id;
  }

  /**
   * Stores the first key (an organisation owner with `secret`) unless the store has a key already;
   * true when it did. Instances booting together on one store seed exactly one key: the count and
   * the insert are one transaction, serialised (SQLite takes its write lock at BEGIN IMMEDIATE;
   * PostgreSQL locks the table against other writers, readers go on).
   */
  async seedOwnerKey(secret: string, name: string): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.run('LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE');
      const row = await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys');
      if ((row?.n ?? 0) > 0) return false;
      const now = seconds(this.clock.now());
      await tx.run(
        'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, scopes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [timeOrderedId(), name, 'organisation-owner', hashKey(secret), DEFAULT_ORGANISATION_ID, '["*"]', now, now],
      );
      return true;
    });
  }

  /** The organisation of the first owner key: the organisation a fresh store starts with. */
  async ownerOrganisationId(): Promise<string | undefined> {
    const row = await this.store.get<{ organisation_id: string | null }>(
      "SELECT organisation_id FROM api_keys WHERE type = 'organisation-owner' ORDER BY created_at, id LIMIT 1",
    );
    return row?.organisation_id ?? undefined;
  }

  /** The principal for a secret, or null when the key is unknown, deleted, expired, rotated out or suspended. */
  async verify(secret: string): Promise<Principal | null> {
    const hash = hashKey(secret);
    const now = this.clock.now();
    const cached = this.#cache.get(hash, now);
    if (cached !== undefined) return cached;
    const generation = this.#cache.generation;
    let validUntilMs = Number.POSITIVE_INFINITY;
    let row: KeyRow | undefined;
    try {
      row = await this.store.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`, [hash]);
      if (!row) {
        row = await this.store.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE previous_key_hash = ?`, [hash]);
        validUntilMs = row?.previous_valid_until ? row.previous_valid_until * 1000 : 0;
      }
    } catch (e) {
      const stale = isGatewayError(e) && e.code === 'store_unavailable' ? this.#cache.stale(hash, now) : undefined;
      if (stale) return stale;
      throw e;
    }
    if (row?.expires_at) validUntilMs = Math.min(validUntilMs, row.expires_at * 1000);
    const usable = row !== undefined && row.status === 'active' && validUntilMs > now
      && (row.workspace_id === null || !this.#suspended.has(row.workspace_id));
    const principal = usable ? toPrincipal(row!) : null;
    this.#cache.set(hash, principal, principal ? validUntilMs : Number.POSITIVE_INFINITY, now, generation);
    return principal;
  }

  /** Drops cached verdicts (after a key changes). */
  invalidate(): void {
    this.#cache.clear();
  }

  /** Follows key changes made on any instance, and tells them ours (the bus clears our cache too). */
  followChanges(changes: Changes): void {
    changes.subscribe(KEYS_TOPIC, () => this.invalidate());
    this.#publish = () => changes.publish(KEYS_TOPIC);
  }

  /** A key was written here: every instance drops its cached verdicts. */
  #changed(): void {
    this.#publish();
  }

  /** Refuses (or accepts again) every key of a workspace, e.g. while it is archived. */
  suspendWorkspace(workspaceId: string, suspended: boolean): void {
    if (suspended === this.#suspended.has(workspaceId)) return;
    if (suspended) this.#suspended.add(workspaceId);
    else this.#suspended.delete(workspaceId);
    this.invalidate();
  }

  async create(input: NewKey, options: IssueOptions = {}): Promise<Issued> {
    const id = timeOrderedId();
    const nowMs = this.clock.now();
    const now = seconds(nowMs);
    const secret = generateSecret(this.options.prefix);
    const rotation = this.#rotationColumns(input.rotation, nowMs);
    const row: KeyRow = {
      id, name: input.name, type: input.type, key_hash: hashKey(secret), organisation_id: input.organisationId,
      workspace_id: input.workspaceId ?? null, user_id: input.userId ?? null, role: input.role ?? null, scopes: JSON.stringify(input.scopes),
      status: 'active', created_at: now, updated_at: now, expires_at: input.expiresAtMs === undefined ? null : seconds(input.expiresAtMs),
      last_reset_at: null, rotation_period: rotation.period, rotation_period_days: rotation.days, next_rotation_at: rotation.next,
      key_transition_period_ms: rotation.transitionMs, previous_key_hash: null, previous_valid_until: null,
      pending_secret: options.pending ? this.#seal(secret, id) : null,
      default_config_id: input.defaultConfigId ?? null,
    };
    assertStorableTimes({ expires_at: row.expires_at, next_rotation_at: row.next_rotation_at });
    // The record is made before the write: whatever fails, fails with nothing stored.
    const record = toView(row, nowMs);
    await this.store.run(
      'INSERT INTO api_keys (id, name, type, key_hash, organisation_id, workspace_id, user_id, role, scopes, status, created_at, updated_at, '
      + 'expires_at, rotation_period, rotation_period_days, next_rotation_at, key_transition_period_ms, pending_secret, default_config_id) '
      + 'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        row.id, row.name, row.type, row.key_hash, row.organisation_id, row.workspace_id, row.user_id, row.role, row.scopes, row.status,
        row.created_at, row.updated_at, row.expires_at, row.rotation_period, row.rotation_period_days, row.next_rotation_at,
        row.key_transition_period_ms, row.pending_secret, row.default_config_id,
      ],
    );
    this.#changed();
    return { record, key: secret };
  }

  async get(id: string): Promise<ApiKeyView | undefined> {
    const row = await this.#row(id);
    return row && toView(row, this.clock.now());
  }

  async list(filter: KeyFilter, offset: number, limit: number): Promise<{ total: number; data: ApiKeyView[] }> {
    const where = ['organisation_id = ?'];
    const params: unknown[] = [filter.organisationId];
    if (filter.type !== undefined) {
      where.push('type = ?');
      params.push(filter.type);
    }
    if (filter.workspaceId !== undefined) {
      where.push('workspace_id = ?');
      params.push(filter.workspaceId);
    }
    if (filter.userId !== undefined) {
      where.push('user_id = ?');
      params.push(filter.userId);
    }
    if (filter.statuses && filter.statuses.length > 0) {
      where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
      params.push(...filter.statuses);
    }
    const clause = where.join(' AND ');
    const total = (await this.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM api_keys WHERE ${clause}`, params))?.n ?? 0;
    const rows = await this.store.all<KeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE ${clause} ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const now = this.clock.now();
    return { total, data: rows.map((row) => toView(row, now)) };
  }

  /** Applies a patch to an active key; undefined when there is no such active key. */
  async update(id: string, patch: KeyPatch): Promise<ApiKeyView | undefined> {
    const nowMs = this.clock.now();
    const sets = ['updated_at = ?'];
    const params: unknown[] = [seconds(nowMs)];
    if (patch.name !== undefined) {
      sets.push('name = ?');
      params.push(patch.name);
    }
    if (patch.scopes !== undefined) {
      sets.push('scopes = ?');
      params.push(JSON.stringify(patch.scopes));
    }
    if (patch.expiresAtMs !== undefined) {
      sets.push('expires_at = ?');
      params.push(patch.expiresAtMs === null ? null : seconds(patch.expiresAtMs));
    }
    if (patch.defaultConfigId !== undefined) {
      sets.push('default_config_id = ?');
      params.push(patch.defaultConfigId);
    }
    if (patch.rotation !== undefined) {
      const rotation = this.#rotationColumns(patch.rotation ?? undefined, nowMs);
      sets.push('rotation_period = ?', 'rotation_period_days = ?', 'next_rotation_at = ?', 'key_transition_period_ms = ?');
      params.push(rotation.period, rotation.days, rotation.next, rotation.transitionMs);
    }
    const { changes } = await this.store.run(`UPDATE api_keys SET ${sets.join(', ')} WHERE id = ? AND status = 'active'`, [...params, id]);
    if (changes === 0) return undefined;
    this.#changed();
    return this.get(id);
  }

  /** Deletes an active key: its secrets (current, previous and pending) stop working at once. */
  async delete(id: string): Promise<boolean> {
    const { changes } = await this.store.run(
      "UPDATE api_keys SET status = 'deleted', pending_secret = NULL, previous_key_hash = NULL, previous_valid_until = NULL, next_rotation_at = NULL, updated_at = ? "
      + "WHERE id = ? AND status = 'active'",
      [seconds(this.clock.now()), id],
    );
    if (changes > 0) this.#changed();
    return changes > 0;
  }

  /**
   * Gives an active key a new secret. The secret it had keeps working for the transition window
   * (`transitionMs`, else the key's policy, else the default); a secret from an earlier rotation whose
   * window is still open stops now (one previous secret at a time). Undefined when the key is not
   * active or changed meanwhile (another instance rotated it first).
   */
  async rotate(id: string, transitionMs?: number, options: IssueOptions & { scheduled?: boolean } = {}): Promise<Issued | undefined> {
    const row = await this.#row(id);
    if (!row || row.status !== 'active') return undefined;
    const nowMs = this.clock.now();
    const secret = generateSecret(this.options.prefix);
    const window = transitionMs ?? row.key_transition_period_ms ?? this.options.defaultTransitionMs;
    assertStorableTimes({ previous_valid_until: Math.ceil((nowMs + window) / 1000) });
    const { changes } = await this.store.run(
      'UPDATE api_keys SET key_hash = ?, previous_key_hash = ?, previous_valid_until = ?, last_reset_at = ?, updated_at = ?, '
      + "next_rotation_at = ?, pending_secret = ? WHERE id = ? AND key_hash = ? AND status = 'active'",
      [
        hashKey(secret), row.key_hash, Math.ceil((nowMs + window) / 1000), seconds(nowMs), seconds(nowMs),
        nextRotation(row, nowMs, options.scheduled === true), options.pending ? this.#seal(secret, id) : null, id, row.key_hash,
      ],
    );
    if (changes === 0) return undefined;
    this.#changed();
    return { record: (await this.get(id))!, key: secret };
  }

  /** Rotates every active key whose `next_rotation_at` has come; the new secrets wait sealed. Returns the ids rotated. */
  async rotateDue(): Promise<string[]> {
    const rows = await this.store.all<{ id: string }>(
      "SELECT id FROM api_keys WHERE status = 'active' AND next_rotation_at IS NOT NULL AND next_rotation_at <= ? ORDER BY next_rotation_at LIMIT ?",
      [seconds(this.clock.now()), MAX_DUE_PER_CHECK],
    );
    const rotated: string[] = [];
    for (const { id } of rows) {
      if (await this.rotate(id, undefined, { pending: true, scheduled: true })) rotated.push(id);
    }
    return rotated;
  }

  /** Whether pending secrets can be sealed (security.secret-box is loaded). */
  canHoldPendingSecrets(): boolean {
    return this.options.sealer() !== undefined;
  }

  /** The pending secret of a key, once: a second call (from any instance) gets undefined. */
  async takePendingSecret(id: string): Promise<string | undefined> {
    const row = await this.store.get<{ pending_secret: string | null }>(
      "SELECT pending_secret FROM api_keys WHERE id = ? AND status = 'active'", [id],
    );
    const sealed = row?.pending_secret;
    if (!sealed) return undefined;
    const { changes } = await this.store.run('UPDATE api_keys SET pending_secret = NULL WHERE id = ? AND pending_secret = ?', [id, sealed]);
    if (changes === 0) return undefined;
    return this.#sealer().decrypt(sealed, id);
  }

  /** Deletes a user's workspace-user keys (in one workspace, or everywhere). Returns how many. */
  async deleteUserKeys(userId: string, workspaceId?: string): Promise<number> {
    const params: unknown[] = [seconds(this.clock.now()), userId];
    if (workspaceId !== undefined) params.push(workspaceId);
    const { changes } = await this.store.run(
      "UPDATE api_keys SET status = 'deleted', pending_secret = NULL, previous_key_hash = NULL, previous_valid_until = NULL, next_rotation_at = NULL, updated_at = ? "
      + `WHERE user_id = ? ${workspaceId !== undefined ? 'AND workspace_id = ? ' : ''}AND status = 'active'`,
      params,
    );
    if (changes > 0) this.#changed();
    return changes;
  }

  /** Ids of every key a user holds or held (deleted ones too: their logs are still the user's). */
  async idsOfUser(userId: string): Promise<string[]> {
    const rows = await this.store.all<{ id: string }>('SELECT id FROM api_keys WHERE user_id = ? ORDER BY created_at, id', [userId]);
    return rows.map((row) => row.id);
  }

  /** Keeps a member's workspace-user keys in step with their workspace role. */
  async setUserRole(userId: string, workspaceId: string, role: string): Promise<void> {
    const { changes } = await this.store.run(
      "UPDATE api_keys SET role = ?, updated_at = ? WHERE user_id = ? AND workspace_id = ? AND type = 'workspace-user' AND status = 'active'",
      [role, seconds(this.clock.now()), userId, workspaceId],
    );
    if (changes > 0) this.#changed();
  }

  #row(id: string): Promise<KeyRow | undefined> {
    return this.store.get<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`, [id]);
  }

  #rotationColumns(rotation: RotationInput | undefined, nowMs: number) {
    if (!rotation) return { period: null, days: null, next: null, transitionMs: null };
    const days = ROTATION_PERIOD_DAYS[rotation.period];
    return {
      period: rotation.period,
      days,
      next: seconds(rotation.nextRotationAtMs ?? nowMs + days * DAY_MS),
      transitionMs: rotation.transitionMs ?? null,
    };
  }

  #seal(secret: string, id: string): string {
    return this.#sealer().encrypt(secret, id);
  }

  #sealer(): SecretBox {
    const sealer = this.options.sealer();
    if (!sealer) throw new Error('pending API key secrets need the security.secret-box plugin');
    return sealer;
  }
}

/**
 * Refuses (before any write) a time the admin routes could not show as a date. The routes bound
 * every duration, so this only catches a caller of the store that does not.
 */
function assertStorableTimes(times: Partial<Record<'expires_at' | 'next_rotation_at' | 'previous_valid_until', number | null>>): void {
  for (const [column, value] of Object.entries(times)) {
    if (value !== null && value !== undefined && !isDateInRange(value * 1000)) throw new RangeError(`api key ${column} is outside the dates that can be stored`);
  }
}

/**
 * When a key with a policy rotates next: a scheduled rotation keeps the cadence (whole periods after
 * the one that came due, skipping any missed while the gateway was down); a manual one restarts it.
 */
function nextRotation(row: KeyRow, nowMs: number, scheduled: boolean): number | null {
  if (row.rotation_period_days === null) return null;
  const period = row.rotation_period_days * DAY_MS;
  if (!scheduled || row.next_rotation_at === null) return seconds(nowMs + period);
  let next = row.next_rotation_at * 1000;
  while (next <= nowMs) next += period;
  return seconds(next);
}
