/**
 * Work leases: background work that exactly one live instance of a fleet must do (a managed batch,
 * a periodic sweep) is claimed through the record store. A lease is a row (name, owner, expires_at);
 * a claim is one atomic upsert that succeeds only when the lease is free, expired, or already
 * ours, so it works on PostgreSQL and on one SQLite file shared by several processes. The holder
 * renews it well before it expires; an instance that dies (kill -9) stops renewing and a live one
 * takes the work over once the lease has expired.
 *
 * Instances compare expiry times written with each other's clocks: their clocks must agree within
 * a small part of the lease.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DependencyContainer } from './di.js';
import { Services } from './services.js';
import type { RecordStore } from './stores.js';

export const LEASE_MIGRATIONS: readonly string[] = [
  'CREATE TABLE work_leases (name TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)',
];

export class WorkLeases {
  /** Host and pid for operators; the random part tells apart gateways in one process (tests). */
  readonly owner = `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
  #ready: Promise<void> | undefined;

  constructor(private readonly store: RecordStore) {}

  /**
   * Takes `name` for `ttlMs` when it is free or expired, or extends it when this instance holds it.
   * Resolves to whether this instance holds it now.
   */
  async claim(name: string, ttlMs: number): Promise<boolean> {
    await this.#migrated();
    const now = Date.now();
    const { changes } = await this.store.run(
      `INSERT INTO work_leases (name, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE work_leases.expires_at <= ? OR work_leases.owner = ?`,
      [name, this.owner, Math.floor(now + ttlMs), Math.floor(now), this.owner],
    );
    return changes > 0;
  }

  /**
   * Periodic work done by one instance per period: succeeds only when nobody (this instance
   * included) has claimed `name` within the last `periodMs`.
   */
  async claimPeriod(name: string, periodMs: number): Promise<boolean> {
    await this.#migrated();
    const now = Date.now();
    const { changes } = await this.store.run(
      `INSERT INTO work_leases (name, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE work_leases.expires_at <= ?`,
      [name, this.owner, Math.floor(now + periodMs), Math.floor(now)],
    );
    return changes > 0;
  }

  /** Gives `name` up (when this instance holds it), so another instance may take it at once. */
  async release(name: string): Promise<void> {
    await this.#migrated();
    await this.store.run('DELETE FROM work_leases WHERE name = ? AND owner = ?', [name, this.owner]);
  }

  /** The current holder of `name` and until when (ms), if any. */
  async holder(name: string): Promise<{ owner: string; expiresAt: number } | undefined> {
    await this.#migrated();
    const row = await this.store.get<{ owner: string; expires_at: number }>('SELECT owner, expires_at FROM work_leases WHERE name = ?', [name]);
    return row && { owner: row.owner, expiresAt: Number(row.expires_at) };
  }

  #migrated(): Promise<void> {
    this.#ready ??= this.store.migrate('core.leases', LEASE_MIGRATIONS).catch((e: unknown) => {
      this.#ready = undefined;
      throw e;
    });
    return this.#ready;
  }
}

/**
 * The gateway's work leases from its container, for plugins written before `api.services`
 * (`api.services.get(Services.WorkLeases)` is the same object).
 */
export function workLeasesIn(container: DependencyContainer): WorkLeases {
  if (container.isRegistered(Services.WorkLeases.token, true)) return container.resolve<WorkLeases>(Services.WorkLeases.token);
  return new WorkLeases(container.resolve<RecordStore>(Services.Records.token));
}
