/**
 * Stored responses in the record store: the Response object as JSON, the request's own input items
 * (for previous_response_id chains) and who may read it. A record belongs to the caller's
 * organisation and workspace: organisation-level keys read every record of their organisation,
 * workspace keys only their workspace's. SQL is portable (SQLite, PostgreSQL).
 */
import type { Principal, RecordStore } from '../../core/index.js';
import type { ResponseObject } from './response-object.js';

const MIGRATIONS = [
  `CREATE TABLE stored_responses (
    id TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    workspace_id TEXT,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    previous_response_id TEXT,
    input TEXT NOT NULL,
    response TEXT NOT NULL
  )`,
];

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
   */
  async insert(owner: Owner, response: ResponseObject, input: readonly Record<string, unknown>[]): Promise<boolean> {
    const { changes } = await this.store.run(
      `INSERT INTO stored_responses (id, organisation_id, workspace_id, created_at, status, previous_response_id, input, response)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [response.id, owner.organisation, owner.workspace, response.created_at, response.status, response.previous_response_id ?? null, JSON.stringify(input), JSON.stringify(response)],
    );
    return changes === 1;
  }

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
