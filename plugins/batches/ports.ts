/**
 * The services this plugin uses from other plugins, by their container tokens and the shapes it
 * relies on (plugins never import each other): Tokens.SecretBox and Tokens.FileStore (feature.files).
 */
import { Tokens } from '../../core/index.js';
import type { ConfigNode } from '../../core/index.js';

export const FILE_SERVICE: symbol = Tokens.FileStore;

export interface Scope {
  organisationId: string;
  workspaceId: string;
}

export interface FileRecord {
  id: string;
  purpose: string;
  filename: string;
  bytes: number;
  created_at: number;
  organisation_id: string;
  workspace_id: string;
}

export interface NewFile {
  purpose: string;
  filename: string;
  scope: Scope;
}

export interface ProviderApi {
  provider: string;
  baseUrl: string;
  headers: Record<string, string>;
}

export interface FileService {
  newId(): string;
  get(id: string, scope?: Scope): Promise<FileRecord | undefined>;
  read(id: string): Promise<AsyncIterable<Uint8Array>>;
  save(file: NewFile, source: AsyncIterable<Uint8Array | string>, id?: string): Promise<FileRecord>;
  providerApi(config: ConfigNode): ProviderApi | undefined;
  pushToProvider(id: string, purpose: string, api: ProviderApi, signal: AbortSignal): Promise<string>;
  providerJson(api: ProviderApi, method: string, path: string, body: unknown, signal: AbortSignal): Promise<Record<string, unknown>>;
  pullFromProvider(providerFileId: string, api: ProviderApi, file: NewFile, signal: AbortSignal): Promise<FileRecord>;
}

export interface SecretBox {
  encrypt(plaintext: string, context?: string): string;
  decrypt(sealed: string, context?: string): string;
}
