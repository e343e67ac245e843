/**
 * The gateway's own files: bytes in the blob store (blobs.ts: a folder, the record store's chunk
 * rows, or a shared folder), records in the record store. The bytes are written first and the
 * record after, so a crash leaves at worst bytes without a record, removed at a later start.
 */
import {
  Errors, inScope, sortableId, type ConfigNode, type FileRecord, type FileService, type NewFile,
  type ProviderApi, type RecordStore, type Scope, type Transport,
} from '../../../core/index.js';
import type { BlobStore } from './blobs.js';
import { LOCAL_FILE_ID } from './folder-blobs.js';
import { multipartBody, providerApiOf, providerJson, sendToProvider } from './provider-files.js';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE files (
     id TEXT PRIMARY KEY,
     purpose TEXT NOT NULL,
     filename TEXT NOT NULL,
     bytes BIGINT NOT NULL,
     created_at BIGINT NOT NULL,
     organisation_id TEXT NOT NULL,
     workspace_id TEXT NOT NULL
   )`,
  'CREATE INDEX files_by_scope ON files (organisation_id, id)',
];

const COLUMNS = 'id, purpose, filename, bytes, created_at, organisation_id, workspace_id';

export interface ListQuery {
  purpose?: string;
  after?: string;
  limit: number;
  order: 'asc' | 'desc';
}

export class StoredFileService implements FileService {
  constructor(
    private readonly store: RecordStore,
    readonly blobs: BlobStore,
    private readonly transport: Transport,
    private readonly providerBases: Readonly<Record<string, string>>,
  ) {}

  async init(): Promise<void> {
    await this.store.migrate('feature.files', MIGRATIONS);
    await this.blobs.init();
    await this.#removeLeftovers();
  }

  newId(): string {
    return sortableId('file-');
  }

  async get(id: string, scope?: Scope): Promise<FileRecord | undefined> {
    if (!LOCAL_FILE_ID.test(id)) return undefined;
    const row = await this.store.get<FileRecord>(`SELECT ${COLUMNS} FROM files WHERE id = ?`, [id]);
    if (!row || (scope && !inScope(scope, row))) return undefined;
    return { ...row, bytes: Number(row.bytes), created_at: Number(row.created_at) };
  }

  async read(id: string): Promise<AsyncIterable<Uint8Array>> {
    if (!LOCAL_FILE_ID.test(id)) throw Errors.notFound(`no file with id "${id}"`, 'file_not_found');
    return this.blobs.read(id);
  }

  /** Stores the bytes of `id` (replacing them only once all are stored); resolves to their length. */
  async write(id: string, source: AsyncIterable<Uint8Array | string>, maxBytes?: number): Promise<number> {
    if (!LOCAL_FILE_ID.test(id)) throw new Error(`not a local file id: ${id}`);
    return this.blobs.write(id, source, maxBytes);
  }

  /** Records a file whose bytes `write` stored; replaces an earlier record with the same id. */
  async insert(record: FileRecord): Promise<void> {
    await this.store.run('DELETE FROM files WHERE id = ?', [record.id]);
    await this.store.run(
      `INSERT INTO files (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [record.id, record.purpose, record.filename, record.bytes, record.created_at, record.organisation_id, record.workspace_id],
    );
  }

  /** Drops bytes that were written but will not be recorded. */
  async discard(id: string): Promise<void> {
    if (LOCAL_FILE_ID.test(id)) await this.blobs.delete(id);
  }

  async save(file: NewFile, source: AsyncIterable<Uint8Array | string>, id = this.newId()): Promise<FileRecord> {
    const bytes = await this.write(id, source);
    const record = toRecord(id, file, bytes);
    await this.insert(record);
    return record;
  }

  async delete(id: string): Promise<boolean> {
    if (!LOCAL_FILE_ID.test(id)) return false;
    // Record first: a crash in between leaves bytes without a record, removed at a later start.
    const { changes } = await this.store.run('DELETE FROM files WHERE id = ?', [id]);
    await this.blobs.delete(id);
    return changes > 0;
  }

  async list(scope: Scope, query: ListQuery): Promise<FileRecord[]> {
    const where = ['organisation_id = ?'];
    const params: unknown[] = [scope.organisationId];
    if (scope.workspaceId !== '') {
      where.push('workspace_id = ?');
      params.push(scope.workspaceId);
    }
    if (query.purpose !== undefined) {
      where.push('purpose = ?');
      params.push(query.purpose);
    }
    if (query.after !== undefined) {
      where.push(query.order === 'desc' ? 'id < ?' : 'id > ?');
      params.push(query.after);
    }
    params.push(query.limit);
    const rows = await this.store.all<FileRecord>(
      `SELECT ${COLUMNS} FROM files WHERE ${where.join(' AND ')} ORDER BY id ${query.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`,
      params,
    );
    return rows.map((row) => ({ ...row, bytes: Number(row.bytes), created_at: Number(row.created_at) }));
  }

  providerApi(config: ConfigNode): ProviderApi | undefined {
    return providerApiOf(config, this.providerBases);
  }

  async pushToProvider(id: string, purpose: string, api: ProviderApi, signal: AbortSignal): Promise<string> {
    const record = await this.get(id);
    if (!record) throw Errors.notFound(`no file with id "${id}"`, 'file_not_found');
    const multipart = multipartBody([['purpose', purpose]], {
      field: 'file', filename: record.filename, bytes: record.bytes, body: await this.read(id),
    });
    const answer = await providerJson(this.transport, api, {
      url: `${api.baseUrl}/files`,
      method: 'POST',
      headers: { ...api.headers, 'content-type': multipart.contentType, 'content-length': String(multipart.length) },
      body: multipart.body,
    }, signal);
    if (typeof answer['id'] !== 'string') throw Errors.badGateway(`provider ${api.provider} answered a file upload without an id`, api.provider);
    return answer['id'];
  }

  providerJson(api: ProviderApi, method: string, path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { ...api.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return providerJson(this.transport, api, {
      url: api.baseUrl + path, method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    }, signal);
  }

  async pullFromProvider(providerFileId: string, api: ProviderApi, file: NewFile, signal: AbortSignal): Promise<FileRecord> {
    const reply = await sendToProvider(this.transport, api, {
      url: `${api.baseUrl}/files/${encodeURIComponent(providerFileId)}/content`,
      method: 'GET',
      headers: { ...api.headers },
    }, signal);
    return this.save(file, reply.body);
  }

  async #removeLeftovers(): Promise<void> {
    const known = new Set((await this.store.all<{ id: string }>('SELECT id FROM files')).map((r) => r.id));
    await this.blobs.removeLeftovers((id) => known.has(id));
  }
}

export function toRecord(id: string, file: NewFile, bytes: number): FileRecord {
  return {
    id,
    purpose: file.purpose,
    filename: file.filename,
    bytes,
    created_at: Math.floor(Date.now() / 1000),
    organisation_id: file.scope.organisationId,
    workspace_id: file.scope.workspaceId,
  };
}
