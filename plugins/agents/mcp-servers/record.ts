/**
 * A registered MCP server as the gateway holds it in memory: public fields, the sealed upstream
 * secrets (opened on use) and the masks answers show instead of them. Rows of the `mcp_servers`
 * table map one to one onto it; a changed row gives a new object (caches are keyed by object).
 */
import type { McpAuthType } from './contract.js';
import type { SecretMappingInput } from './schemas.js';

/** The non-secret part of `auth`. Header names are lower-cased. */
export interface PublicAuth {
  type: McpAuthType;
  token_url?: string;
  client_id?: string;
  scope?: string;
  audience?: string;
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

/** The secret part of `auth`, as sealed. */
export interface SecretAuth {
  token?: string;
  client_secret?: string;
  headers?: Record<string, string>;
}

/** What answers show for each secret: same keys as SecretAuth, masks as values. */
export type AuthMasks = Readonly<{ token?: string; client_secret?: string; headers?: Readonly<Record<string, string>> }>;

export interface McpServer {
  readonly id: string;
  readonly organisationId: string;
  /** The owning workspace; undefined for an organisation-level server. */
  readonly workspaceId: string | undefined;
  readonly slug: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly url: string;
  readonly auth: Readonly<PublicAuth>;
  /** `v1:...` sealed JSON of SecretAuth, or undefined when the server holds no secret. */
  readonly sealed: string | undefined;
  readonly masks: AuthMasks;
  readonly allowAllWorkspaces: boolean;
  readonly allowedWorkspaces: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly allowedTools: readonly string[] | null;
  readonly deniedTools: readonly string[];
  readonly secretMappings: readonly SecretMappingInput[];
  /** Incremented on every update: a cached object with the same revision is current. */
  readonly revision: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
}

export interface McpServerRow {
  id: string;
  organisation_id: string;
  workspace_id: string | null;
  slug: string;
  name: string;
  description: string | null;
  url: string;
  auth: string;
  credentials: string | null;
  masks: string;
  allow_all_workspaces: number;
  allowed_workspaces: string;
  allowed_tools: string | null;
  denied_tools: string;
  secret_mappings: string;
  revision: number;
  created_at: string;
  last_updated_at: string;
}

export function fromRow(row: McpServerRow): McpServer {
  const allowed = JSON.parse(row.allowed_workspaces) as string[];
  return Object.freeze({
    id: row.id,
    organisationId: row.organisation_id,
    workspaceId: row.workspace_id ?? undefined,
    slug: row.slug,
    name: row.name,
    description: row.description ?? undefined,
    url: row.url,
    auth: Object.freeze(JSON.parse(row.auth) as PublicAuth),
    sealed: row.credentials ?? undefined,
    masks: Object.freeze(JSON.parse(row.masks) as AuthMasks),
    allowAllWorkspaces: Number(row.allow_all_workspaces) === 1,
    allowedWorkspaces: Object.freeze(allowed),
    allowedSet: new Set(allowed),
    allowedTools: row.allowed_tools === null ? null : Object.freeze(JSON.parse(row.allowed_tools) as string[]),
    deniedTools: Object.freeze(JSON.parse(row.denied_tools) as string[]),
    secretMappings: Object.freeze(JSON.parse(row.secret_mappings) as SecretMappingInput[]),
    revision: Number(row.revision),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
  });
}

export function rowOf(s: McpServer): McpServerRow {
  return {
    id: s.id, organisation_id: s.organisationId, workspace_id: s.workspaceId ?? null, slug: s.slug, name: s.name,
    description: s.description ?? null, url: s.url, auth: JSON.stringify(s.auth), credentials: s.sealed ?? null,
    masks: JSON.stringify(s.masks), allow_all_workspaces: s.allowAllWorkspaces ? 1 : 0,
    allowed_workspaces: JSON.stringify(s.allowedWorkspaces), allowed_tools: s.allowedTools === null ? null : JSON.stringify(s.allowedTools),
    denied_tools: JSON.stringify(s.deniedTools), secret_mappings: JSON.stringify(s.secretMappings),
    revision: s.revision, created_at: s.createdAt, last_updated_at: s.lastUpdatedAt,
  };
}

/** The record as answers show it: secrets masked, never in full. */
export function toJson(s: McpServer): Record<string, unknown> {
  const auth: Record<string, unknown> = { ...s.auth };
  if (s.masks.token !== undefined) auth['token'] = s.masks.token;
  if (s.masks.client_secret !== undefined) auth['client_secret'] = s.masks.client_secret;
  if (s.masks.headers !== undefined) auth['headers'] = { ...s.masks.headers };
  return {
    id: s.id,
    object: 'mcp-server',
    slug: s.slug,
    name: s.name,
    description: s.description ?? null,
    url: s.url,
    auth,
    organisation_id: s.organisationId,
    workspace_id: s.workspaceId ?? null,
    allow_all_workspaces: s.allowAllWorkspaces,
    allowed_workspaces: s.allowedWorkspaces,
    allowed_tools: s.allowedTools,
    denied_tools: s.deniedTools,
    secret_mappings: s.secretMappings,
    status: 'active',
    created_at: s.createdAt,
    last_updated_at: s.lastUpdatedAt,
  };
}
