/**
 * A secret reference as the gateway holds it in memory, the row of the `secret_references` table
 * it comes from, and the record answers show. The manager's secret settings live sealed
 * (`sealed_config`, bound to the reference id); answers show a mask in their place.
 */
import type { ManagerConfig } from './managers/manager.js';
import type { ManagerId } from './managers/index.js';

export interface SecretReference {
  readonly id: string;
  readonly organisationId: string;
  readonly slug: string;
  readonly name: string;
  readonly description: string | undefined;
  readonly manager: ManagerId;
  /** manager_config without its secret fields. */
  readonly config: ManagerConfig;
  /** `v1:...` sealed JSON of the secret fields, or undefined when the manager has none set. */
  readonly sealed: string | undefined;
  /** The names of the sealed fields (answers show a mask for each). */
  readonly secretFields: readonly string[];
  readonly secretPath: string;
  readonly secretKey: string | undefined;
  readonly allowAllWorkspaces: boolean;
  readonly allowedWorkspaces: readonly string[];
  readonly allowedSet: ReadonlySet<string>;
  /** Incremented by every update: a changed reference is a new object (caches are keyed by object). */
  readonly revision: number;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
}

export interface SecretReferenceRow {
  id: string;
  organisation_id: string;
  slug: string;
  name: string;
  description: string | null;
  manager: string;
  manager_config: string;
  sealed_config: string | null;
  secret_fields: string;
  secret_path: string;
  secret_key: string | null;
  allow_all_workspaces: number;
  allowed_workspaces: string;
  revision: number;
  created_at: string;
  last_updated_at: string;
}

/** What answers show for a secret field of manager_config. */
export const MASK = '********';

/** The SecretBox context binding sealed settings to their reference. */
export const sealContext = (id: string) => `secret-reference:${id}`;

export function fromRow(row: SecretReferenceRow): SecretReference {
  const allowed = JSON.parse(row.allowed_workspaces) as string[];
  return Object.freeze({
    id: row.id,
    organisationId: row.organisation_id,
    slug: row.slug,
    name: row.name,
    description: row.description ?? undefined,
    manager: row.manager as ManagerId,
    config: Object.freeze(JSON.parse(row.manager_config) as Record<string, unknown>),
    sealed: row.sealed_config ?? undefined,
    secretFields: Object.freeze(JSON.parse(row.secret_fields) as string[]),
    secretPath: row.secret_path,
    secretKey: row.secret_key ?? undefined,
    allowAllWorkspaces: row.allow_all_workspaces === 1,
    allowedWorkspaces: Object.freeze(allowed),
    allowedSet: new Set(allowed),
    revision: Number(row.revision),
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
  });
}

export function rowOf(r: SecretReference): SecretReferenceRow {
  return {
    id: r.id, organisation_id: r.organisationId, slug: r.slug, name: r.name, description: r.description ?? null, manager: r.manager,
    manager_config: JSON.stringify(r.config), sealed_config: r.sealed ?? null,
    secret_fields: JSON.stringify(r.secretFields), secret_path: r.secretPath, secret_key: r.secretKey ?? null,
    allow_all_workspaces: r.allowAllWorkspaces ? 1 : 0, allowed_workspaces: JSON.stringify(r.allowedWorkspaces),
    revision: r.revision, created_at: r.createdAt, last_updated_at: r.lastUpdatedAt,
  };
}

/** A mask for each secret field that is set: known without opening the sealed part. */
function masks(r: SecretReference): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of r.secretFields) out[field] = MASK;
  return out;
}

/** Whether the reference may be used in `workspaceId` (organisation-level callers: anywhere in their organisation). */
export function allowedIn(r: SecretReference, workspaceId: string | undefined): boolean {
  return workspaceId === undefined || r.allowAllWorkspaces || r.allowedSet.has(workspaceId);
}

/** The record as answers show it: manager_config's secret fields masked, never in full. */
export function toJson(r: SecretReference): Record<string, unknown> {
  return {
    id: r.id,
    object: 'secret_reference',
    slug: r.slug,
    name: r.name,
    description: r.description ?? null,
    manager: r.manager,
    manager_config: { ...r.config, ...masks(r) },
    secret_path: r.secretPath,
    secret_key: r.secretKey ?? null,
    organisation_id: r.organisationId,
    allow_all_workspaces: r.allowAllWorkspaces,
    allowed_workspaces: r.allowedWorkspaces,
    created_at: r.createdAt,
    last_updated_at: r.lastUpdatedAt,
  };
}
