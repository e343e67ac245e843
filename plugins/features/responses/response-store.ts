/**
 * Stored responses in the record store: the Response object as JSON, the request's own input items
 * (for previous_response_id chains) and who may read it. A record belongs to the caller's
 * organisation and workspace: organisation-level keys read every record of their organisation,
 * workspace keys only their workspace's. SQL is portable (SQLite, PostgreSQL).
 */
import type { Principal, RecordStore } from '../../../core/index.js';
import type { ResponseObject } from './response-object.js';

const MIGRATIONS = [
  `CREATE TABLE stored_responses (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    workspace_id TEXT,
    created_at BIGINT NOT NULL, -- was INTEGER: the same 64-bit affinity on SQLite; 32-bit on PostgreSQL
    status TEXT NOT NULL,
    previous_response_id TEXT,
    input TEXT NOT NULL,
    response TEXT NOT NULL
  )`,
  // The gateway process working on an unfinished record (worker-lease.ts); null when the record was stored finished
  // (or as the provider reported it). Unfinished records from before leases belong to no live process.
  'ALTER TABLE stored_responses ADD COLUMN worker_id TEXT',
  `UPDATE stored_responses SET worker_id = 'before-leases' WHERE status IN ('in_progress', 'queued')`,
  'CREATE INDEX stored_responses_by_status ON stored_responses (status)',
  // One row per live gateway process: its lease, renewed while it runs (ms since the epoch; BIGINT for PostgreSQL).
  `CREATE TABLE response_workers (
    id TEXT PRIMARY KEY,
    lease_expires_at BIGINT NOT NULL
  )`,
];

/** Statuses of a record that someone is still working on. */
const UNFINISHED_STATUSES = ['in_progress', 'queued'] as const;
const UNFINISHED_SQL = UNFINISHED_STATUSES.map((s) => `'${s}'`).join(', ');

export interface Owner {
  organisation: string;
  /** Null for organisation-level keys. */
  workspace: string | null;
}

export interface StoredResponse {
  response: ResponseObject;
  /** The request's own input items (not the chain's). */
  input: Record<string, unknown>[];
  previousResponseId: string | null;
}

export interface AbandonedRecord {
  id: string;
  status: string;
  worker_id: string;
  /** The Response object as stored (JSON). */
  response: string;
}

interface Row {
  organisation_id: string;
  workspace_id: string | null;
  previous_response_id: string | null;
  input: string;
  response: string;
}

export function ownerOf(principal: Principal | undefined): Owner {
  return { organisation: principal?.organisationId ?? '', workspace: principal?.workspaceId ?? null };
}

export class ResponseStore {
  constructor(private readonly store: RecordStore) {}

  init(): Promise<void> {
    return this.store.migrate('feature.responses', MIGRATIONS);
  }

  /**
   * Stores a new record; false when the id is taken. A provider's id never replaces a record: a
   * `custom_host` under a caller's control could otherwise overwrite someone else's response.
   * `workerId` names the process that will finish an unfinished record (worker-lease.ts).
   */
  async insert(owner: Owner, response: ResponseObject, input: readonly Record<string, unknown>[], workerId: string | null = null): Promise<boolean> {
    const { changes } = await this.store.run(
      `INSERT INTO stored_responses (id, organisation_id, workspace_id, created_at, status, previous_response_id, input, response, worker_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [response.id, owner.organisation, owner.workspace, response.created_at, response.status, response.previous_response_id ?? null, JSON.stringify(input), JSON.stringify(response), workerId],
    );
    return changes === 1;
  }

  /** The worker's outcome, unconditionally: it wins even over a sweep that judged the worker gone too early. */
  async update(response: ResponseObject): Promise<void> {
    await this.store.run('UPDATE stored_responses SET status = ?, response = ? WHERE id = ?', [response.status, JSON.stringify(response), response.id]);
  }

  /** The record when it exists and the caller may read it. */
  async get(reader: Owner, id: string): Promise<StoredResponse | undefined> {
    const row = await this.store.get<Row>(
      'SELECT organisation_id, workspace_id, previous_response_id, input, response FROM stored_responses WHERE id = ?',
      [id],
    );
    if (!row || !visible(row, reader)) return undefined;
    return { response: JSON.parse(row.response) as ResponseObject, input: JSON.parse(row.input) as Record<string, unknown>[], previousResponseId: row.previous_response_id };
  }

  /** Takes or extends `workerId`'s lease (also after a sweep deleted it: the worker was only slow). */
  async renewLease(workerId: string, expiresAt: number): Promise<void> {
    await this.store.run(
      `INSERT INTO response_workers (id, lease_expires_at) VALUES (?, ?)
       ON CONFLICT (id) DO UPDATE SET lease_expires_at = excluded.lease_expires_at`,
      [workerId, expiresAt],
    );
  }

  async releaseLease(workerId: string): Promise<void> {
    await this.store.run('DELETE FROM response_workers WHERE id = ?', [workerId]);
  }

  /** Forgets leases that ran out before `now`: their records are swept, the rows are of no more use. */
  async forgetExpiredLeases(now: number): Promise<void> {
    await this.store.run('DELETE FROM response_workers WHERE lease_expires_at < ?', [now]);
  }

  /** Unfinished records whose worker holds no lease at `now` (ms): it stopped or crashed. */
  abandoned(now: number): Promise<AbandonedRecord[]> {
    return this.store.all<AbandonedRecord>(
      `SELECT r.id, r.status, r.worker_id, r.response FROM stored_responses r
       WHERE r.status IN (${UNFINISHED_SQL}) AND r.worker_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM response_workers w WHERE w.id = r.worker_id AND w.lease_expires_at >= ?)`,
      [now],
    );
  }

  /** Replaces an abandoned record unless it changed since it was read (its worker finished, or another sweep). */
  async replaceAbandoned(record: AbandonedRecord, response: ResponseObject): Promise<boolean> {
    const { changes } = await this.store.run(
      'UPDATE stored_responses SET status = ?, response = ? WHERE id = ? AND status = ? AND worker_id = ?',
      [response.status, JSON.stringify(response), record.id, record.status, record.worker_id],
    );
    return changes === 1;
  }

  async delete(reader: Owner, id: string): Promise<boolean> {
    const row = await this.store.get<Row>('SELECT organisation_id, workspace_id FROM stored_responses WHERE id = ?', [id]);
    if (!row || !visible(row, reader)) return false;
    await this.store.run('DELETE FROM stored_responses WHERE id = ?', [id]);
    return true;
  }
}

function visible(row: Pick<Row, 'organisation_id' | 'workspace_id'>, reader: Owner): boolean {
  return row.organisation_id === reader.organisation && (reader.workspace === null || row.workspace_id === reader.workspace);
}
