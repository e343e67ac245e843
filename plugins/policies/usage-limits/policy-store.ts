/**
 * Usage-limit policies and their alerts in the record store. Timestamps are ISO 8601 strings;
 * conditions and group_by JSON text. SQL is portable (SQLite, PostgreSQL): `?` placeholders only.
 */
import { randomUUID } from 'node:crypto';
import { wallNow as now, type RecordStore } from '../../../core/index.js';
import type { Condition, GroupBy } from '../limits-common/conditions.js';
import { PolicyTable } from '../limits-common/policy-table.js';
import type { PeriodicReset } from './schedule.js';

export const OBJECT = 'policy_usage_limits';
export type UsageType = 'cost' | 'tokens';
export type Status = 'active' | 'archived';
export type AlertKind = 'threshold' | 'exhausted';

const MIGRATIONS = [
  `CREATE TABLE usage_limit_policies (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    name TEXT,
    type TEXT NOT NULL,
    credit_limit DOUBLE PRECISION NOT NULL,
    alert_threshold DOUBLE PRECISION,
    periodic_reset TEXT,
    periodic_reset_days INTEGER,
    reset_anchor TEXT,
    alert_epoch INTEGER NOT NULL DEFAULT 0,
    last_reset_at TEXT,
    status TEXT NOT NULL,
    conditions TEXT NOT NULL,
    group_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX usage_limit_policies_scope ON usage_limit_policies (organisation_id, workspace_id, status)',
  `CREATE TABLE usage_limit_alerts (
    id TEXT PRIMARY KEY,
    policy_id TEXT NOT NULL,
    value_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    threshold DOUBLE PRECISION NOT NULL,
    usage DOUBLE PRECISION NOT NULL,
    period_start TEXT,
    created_at TEXT NOT NULL,
    reset_at TEXT
  )`,
  'CREATE INDEX usage_limit_alerts_policy ON usage_limit_alerts (policy_id, created_at)',
];

/** A policy as stored (the API view adds the computed schedule fields, see view.ts). */
export interface StoredUsageLimit {
  id: string;
  organisation_id: string;
  workspace_id: string;
  name: string | null;
  type: UsageType;
  credit_limit: number;
  alert_threshold: number | null;
  periodic_reset: PeriodicReset | null;
  periodic_reset_days: number | null;
  /** ISO; the first reset of a days schedule. */
  reset_anchor: string | null;
  /** Raised when a limit or threshold is raised: alert flags of older epochs no longer count. */
  alert_epoch: number;
  /** ISO; the last reset by hand (schedule change, reset_usage_for_value). */
  last_reset_at: string | null;
  status: Status;
  conditions: Condition[];
  group_by: GroupBy[];
  created_at: string;
  last_updated_at: string;
}

export type NewUsageLimit = Omit<StoredUsageLimit, 'id' | 'alert_epoch' | 'last_reset_at' | 'status' | 'created_at' | 'last_updated_at'>;
export type UsageLimitChanges = Partial<Omit<StoredUsageLimit, 'id' | 'organisation_id' | 'workspace_id' | 'created_at' | 'last_updated_at'>>;

export interface AlertRecord {
  id: string;
  object: 'usage_limit_alert';
  policy_id: string;
  value_key: string;
  kind: AlertKind;
  threshold: number;
  usage: number;
  period_start: string | null;
  created_at: string;
  reset_at: string | null;
  status: 'active' | 'reset';
}

type Row = Omit<StoredUsageLimit, 'conditions' | 'group_by'> & { conditions: string; group_by: string };
type AlertRow = Omit<AlertRecord, 'object' | 'status'>;

const COLUMNS = 'id, organisation_id, workspace_id, name, type, credit_limit, alert_threshold, periodic_reset, periodic_reset_days, '
  + 'reset_anchor, alert_epoch, last_reset_at, status, conditions, group_by, created_at, last_updated_at';
const ALERT_COLUMNS = 'id, policy_id, value_key, kind, threshold, usage, period_start, created_at, reset_at';
const JSON_COLUMNS: ReadonlySet<string> = new Set(['conditions', 'group_by']);

const iso = () => new Date(now()).toISOString();

export class UsageLimitStore extends PolicyTable<Row, StoredUsageLimit, UsageLimitChanges> {
  constructor(store: RecordStore) {
    super(store, { table: 'usage_limit_policies', columns: COLUMNS, jsonColumns: JSON_COLUMNS, toPolicy, now: iso });
  }

  init(): Promise<void> {
    return this.store.migrate('policy.usage-limits', MIGRATIONS);
  }

  async insert(policy: NewUsageLimit): Promise<StoredUsageLimit> {
    const at = iso();
    const record: StoredUsageLimit = { ...policy, id: randomUUID(), alert_epoch: 0, last_reset_at: null, status: 'active', created_at: at, last_updated_at: at };
    await this.store.run(
      `INSERT INTO usage_limit_policies (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [record.id, record.organisation_id, record.workspace_id, record.name, record.type, record.credit_limit, record.alert_threshold,
        record.periodic_reset, record.periodic_reset_days, record.reset_anchor, record.alert_epoch, record.last_reset_at,
        record.status, JSON.stringify(record.conditions), JSON.stringify(record.group_by), record.created_at, record.last_updated_at],
    );
    return record;
  }

  async insertAlert(alert: Omit<AlertRow, 'id' | 'created_at' | 'reset_at'>): Promise<void> {
    await this.store.run(
      `INSERT INTO usage_limit_alerts (${ALERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [randomUUID(), alert.policy_id, alert.value_key, alert.kind, alert.threshold, alert.usage, alert.period_start, iso(), null],
    );
  }

  /** Marks a policy's active alerts (of one value, or all) as reset. */
  async resetAlerts(policyId: string, valueKey?: string): Promise<void> {
    const byValue = valueKey === undefined ? '' : ' AND value_key = ?';
    await this.store.run(
      `UPDATE usage_limit_alerts SET reset_at = ? WHERE policy_id = ? AND reset_at IS NULL${byValue}`,
      valueKey === undefined ? [iso(), policyId] : [iso(), policyId, valueKey],
    );
  }

  async alerts(policyId: string, offset: number, limit: number): Promise<{ data: AlertRecord[]; total: number }> {
    const count = await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM usage_limit_alerts WHERE policy_id = ?', [policyId]);
    const rows = await this.store.all<AlertRow>(
      `SELECT ${ALERT_COLUMNS} FROM usage_limit_alerts WHERE policy_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [policyId, limit, offset],
    );
    return {
      data: rows.map((r) => ({
        ...r, object: 'usage_limit_alert', threshold: Number(r.threshold), usage: Number(r.usage), status: r.reset_at ? 'reset' : 'active',
      })),
      total: Number(count?.n ?? 0),
    };
  }
}

function toPolicy(row: Row): StoredUsageLimit {
  return {
    ...row,
    credit_limit: Number(row.credit_limit),
    alert_threshold: row.alert_threshold === null ? null : Number(row.alert_threshold),
    periodic_reset_days: row.periodic_reset_days === null ? null : Number(row.periodic_reset_days),
    alert_epoch: Number(row.alert_epoch),
    conditions: JSON.parse(row.conditions) as Condition[],
    group_by: JSON.parse(row.group_by) as GroupBy[],
  };
}
