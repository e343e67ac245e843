/**
 * An agent server as the gateway holds it in memory: public fields, the sealed auth secret (opened
 * when a call needs it) and what answers show instead of it. Rows of `agent_servers` map one to
 * one onto it; a changed row gives a new object with a higher revision (caches key on both).
 */
import type { AuthType } from './schemas.js';

export interface AgentServer {
  readonly id: string;
  readonly organisationId: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string | undefined;
  /** The agent's base URL, without a trailing slash. */
  readonly url: string;
  readonly authType: AuthType;
  /** `v1:...` sealed JSON of the auth secret (token or headers), undefined for `none`. */
  readonly sealed: string | undefined;
  /** auth `headers`: the names (values are sealed), shown in answers. */
  readonly authHeaderNames: readonly string[];
  /** The owning workspace; undefined for an organisation-level server. */
  readonly workspaceId: string | undefined;
  readonly allowAllWorkspaces: boolean;
  readonly allowedWorkspaces: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  readonly revision: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
}

/** The sealed part. */
export interface AuthSecret {
  token?: string;
  headers?: Record<string, string>;
}

export interface AgentServerRow {
  id: string;
  organisation_id: string;
  slug: string;
  name: string;
  description: string | null;
  url: string;
  auth_type: string;
  auth_secret: string | null;
  auth_header_names: string;
  workspace_id: string | null;
  allow_all_workspaces: number;
  allowed_workspaces: string;
  revision: number;
  created_at: string;
  last_updated_at: string;
}

export function fromRow(row: AgentServerRow): AgentServer {
  const allowed = JSON.parse(row.allowed_workspaces) as string[];
  return Object.freeze({
    id: row.id,
    organisationId: row.organisation_id,
    slug: row.slug,
    name: row.name,
    description: row.description ?? undefined,
    url: row.url,
    authType: row.auth_type as AuthType,
    sealed: row.auth_secret ?? undefined,
    authHeaderNames: Object.freeze(JSON.parse(row.auth_header_names) as string[]),
    workspaceId: row.workspace_id ?? undefined,
    allowAllWorkspaces: Number(row.allow_all_workspaces) === 1,
    allowedWorkspaces: Object.freeze(allowed),
    allowedSet: new Set(allowed),
    revision: Number(row.revision),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
  });
}

export function rowOf(s: AgentServer): AgentServerRow {
  return {
    id: s.id, organisation_id: s.organisationId, slug: s.slug, name: s.name, description: s.description ?? null, url: s.url,
    auth_type: s.authType, auth_secret: s.sealed ?? null, auth_header_names: JSON.stringify(s.authHeaderNames),
    workspace_id: s.workspaceId ?? null, allow_all_workspaces: s.allowAllWorkspaces ? 1 : 0,
    allowed_workspaces: JSON.stringify(s.allowedWorkspaces), revision: s.revision, created_at: s.createdAt, last_updated_at: s.lastUpdatedAt,
  };
}

/** The record as answers show it: the auth type and header names, never a secret. */
export function toJson(s: AgentServer): Record<string, unknown> {
  return {
    id: s.id,
    object: 'agent_server',
    slug: s.slug,
    name: s.name,
    description: s.description ?? null,
    url: s.url,
    auth: { type: s.authType, ...(s.authType === 'headers' ? { header_names: s.authHeaderNames } : {}), ...(s.authType === 'bearer' ? { token_set: true } : {}) },
    organisation_id: s.organisationId,
    workspace_id: s.workspaceId ?? null,
    allow_all_workspaces: s.allowAllWorkspaces,
    allowed_workspaces: s.allowedWorkspaces,
    created_at: s.createdAt,
    last_updated_at: s.lastUpdatedAt,
  };
}
