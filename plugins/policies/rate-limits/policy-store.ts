/**
 * Rate-limit policies in the record store, one row each; conditions and group_by as JSON text.
 * Timestamps are ISO 8601 strings. SQL is portable (SQLite, PostgreSQL): `?` placeholders only.
 */
import { randomUUID } from 'node:crypto';
import { wallNow as now, type RecordStore } from '../../../core/index.js';
import type { Condition, GroupBy } from '../limits-common/conditions.js';
import { PolicyTable } from '../limits-common/policy-table.js';
import type { Unit } from './windows.js';

export const OBJECT = 'policy_rate_limits';
export type LimitType = 'requests' | 'tokens';
export type Status = 'active' | 'archived';

const MIGRATIONS = [
  `CREATE TABLE rate_limit_policies (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    name TEXT,
    type TEXT NOT NULL,
    unit TEXT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    conditions TEXT NOT NULL,
    group_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX rate_limit_policies_scope ON rate_limit_policies (organisation_id, workspace_id, status)',
];

export interface RateLimitPolicy {
  id: string;
  object: typeof OBJECT;
  name: string | null;
  type: LimitType;
  unit: Unit;
  value: number;
  status: Status;
  workspace_id: string;
  organisation_id: string;
  conditions: Condition[];
  group_by: GroupBy[];
  created_at: string;
  last_updated_at: string;
}

export type NewPolicy = Pick<RateLimitPolicy, 'name' | 'type' | 'unit' | 'value' | 'workspace_id' | 'organisation_id' | 'conditions' | 'group_by'>;
export type PolicyChanges = Partial<Pick<RateLimitPolicy, 'name' | 'type' | 'unit' | 'value' | 'conditions' | 'group_by' | 'status'>>;

interface Row {
  id: string;
  organisation_id: string;
  workspace_id: string;
  name: string | null;
  type: string;
  unit: string;
  value: number;
  status: string;
  conditions: string;
  group_by: string;
  created_at: string;
  last_updated_at: string;
}

/** Columns stored as JSON text. */
const POLICY_JSON_COLUMNS: ReadonlySet<string> = new Set(['conditions', 'group_by']);

const COLUMNS = 'id, organisation_id, workspace_id, name, type, unit, value, status, conditions, group_by, created_at, last_updated_at';

export class RateLimitPolicyStore extends PolicyTable<Row, RateLimitPolicy, PolicyChanges> {
  constructor(store: RecordStore) {
    super(store, { table: 'rate_limit_policies', columns: COLUMNS, jsonColumns: POLICY_JSON_COLUMNS, toPolicy, now: () => new Date(now()).toISOString() });
  }

  init(): Promise<void> {
    return this.store.migrate('policy.rate-limits', MIGRATIONS);
  }

  async insert(policy: NewPolicy): Promise<RateLimitPolicy> {
    const at = new Date(now()).toISOString();
    const record: RateLimitPolicy = { id: randomUUID(), object: OBJECT, status: 'active', created_at: at, last_updated_at: at, ...policy };
    await this.store.run(
      `INSERT INTO rate_limit_policies (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [record.id, record.organisation_id, record.workspace_id, record.name, record.type, record.unit, record.value,
        record.status, JSON.stringify(record.conditions), JSON.stringify(record.group_by), record.created_at, record.last_updated_at],
    );
    return record;
  }
}

function toPolicy(row: Row): RateLimitPolicy {
  return {
    id: row.id,
    object: OBJECT,
    name: row.name,
    type: row.type as LimitType,
    unit: row.unit as Unit,
    value: Number(row.value),
    status: row.status as Status,
    workspace_id: row.workspace_id,
    organisation_id: row.organisation_id,
    conditions: JSON.parse(row.conditions) as Condition[],
    group_by: JSON.parse(row.group_by) as GroupBy[],
    created_at: row.created_at,
    last_updated_at: row.last_updated_at,
  };
}
