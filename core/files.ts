/**
 * The file service (`Services.Files`, provided by feature.files) as its consumers see it: stored
 * files scoped to an organisation and workspace, and their exchange with a provider's files API
 * (batches, fine-tuning).
 */
import type { ConfigNode } from './config/types.js';
import type { Principal } from './types.js';

/** Who may see a record: the organisation, and the workspace when the caller's key has one. */
export interface Scope {
  organisationId: string;
  /** '' for organisation-level keys, which see every workspace of their organisation. */
  workspaceId: string;
}

/** The caller's scope; without an auth plugin every record lives in the '' organisation. */
export function scopeOf(principal: Principal | undefined): Scope {
  return { organisationId: principal?.organisationId ?? '', workspaceId: principal?.workspaceId ?? '' };
}

export function inScope(scope: Scope, record: { organisation_id: string; workspace_id: string }): boolean {
  return record.organisation_id === scope.organisationId && (scope.workspaceId === '' || record.workspace_id === scope.workspaceId);
}

export interface FileRecord {
  id: string;
  purpose: string;
  filename: string;
  bytes: number;
  /** Unix seconds. */
  created_at: number;
  organisation_id: string;
  workspace_id: string;
}

export interface NewFile {
  purpose: string;
  filename: string;
  scope: Scope;
}

/** An OpenAI-compatible provider API (files, batches) as named by a route config. */
export interface ProviderApi {
  provider: string;
  /** Base URL including the version segment, without a trailing slash. */
  baseUrl: string;
  /** Credentials and account headers for the provider. */
  headers: Record<string, string>;
}

export interface FileService {
  newId(): string;
  /** The record, when it exists and the scope may see it (no scope: any). */
  get(id: string, scope?: Scope): Promise<FileRecord | undefined>;
  /** The bytes of a stored file, streamed from disk. */
  read(id: string): Promise<AsyncIterable<Uint8Array>>;
  /**
   * Writes a file atomically (temporary file, fsync, rename) and records it. With an `id` that
   * already exists, the file and its record are replaced, so a writer can safely repeat itself.
   */
  save(file: NewFile, source: AsyncIterable<Uint8Array | string>, id?: string): Promise<FileRecord>;
  delete(id: string): Promise<boolean>;
  /** The provider API a config names: one provider (no targets) with an OpenAI-compatible files API. */
  providerApi(config: ConfigNode): ProviderApi | undefined;
  /** Uploads a stored file to the provider's `/files`; resolves to the provider's file id. */
  pushToProvider(id: string, purpose: string, api: ProviderApi, signal: AbortSignal): Promise<string>;
  /**
   * A JSON call to `{api.baseUrl}{path}` (batches, fine-tuning): the parsed answer object; provider
   * errors keep their status and message, network failures are 502.
   */
  providerJson(api: ProviderApi, method: string, path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Downloads a provider's file into the store under a new id. */
  pullFromProvider(providerFileId: string, api: ProviderApi, file: NewFile, signal: AbortSignal): Promise<FileRecord>;
}
