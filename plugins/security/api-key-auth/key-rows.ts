/**
 * One `api_keys` row, and the two shapes made from it: the principal of a verified key, and the
 * record the admin routes answer with (ISO 8601 times, never a secret or a hash).
 */
import { isoOrNull, type ApiKeyView, type Principal, type RotationPeriod } from '../../../core/index.js';

/** `monthly` is a fixed 30 days, so that `rotation_period_days` says exactly when the next rotation falls. */
export const ROTATION_PERIOD_DAYS: Readonly<Record<RotationPeriod, number>> = { weekly: 7, monthly: 30 };
export const DAY_MS = 24 * 3600 * 1000;

export interface KeyRow {
  id: string;
  name: string;
  type: string;
  key_hash: string;
  organisation_id: string | null;
  workspace_id: string | null;
  user_id: string | null;
  role: string | null;
  scopes: string;
  status: string;
  created_at: number;
  updated_at: number | null;
  expires_at: number | null;
  last_reset_at: number | null;
  rotation_period: string | null;
  rotation_period_days: number | null;
  next_rotation_at: number | null;
  key_transition_period_ms: number | null;
  previous_key_hash: string | null;
  previous_valid_until: number | null;
  pending_secret: string | null;
  default_config_id: string | null;
}

export const KEY_COLUMNS = 'id, name, type, key_hash, organisation_id, workspace_id, user_id, role, scopes, status, created_at, updated_at, '
  + 'expires_at, last_reset_at, rotation_period, rotation_period_days, next_rotation_at, key_transition_period_ms, '
  + 'previous_key_hash, previous_valid_until, pending_secret, default_config_id';

export function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function iso(unixSeconds: number | null): string | null {
  return unixSeconds === null ? null : isoOrNull(unixSeconds * 1000);
}

export function toView(row: KeyRow, nowMs: number): ApiKeyView {
  const inTransition = row.previous_valid_until !== null && row.previous_valid_until * 1000 > nowMs;
  return {
    id: row.id,
    object: 'api-key',
    name: row.name,
    type: row.type,
    organisation_id: row.organisation_id,
    workspace_id: row.workspace_id,
    user_id: row.user_id,
    role: row.type === 'organisation-owner' ? 'owner' : row.role,
    scopes: parseScopes(row.scopes),
    status: row.status,
    created_at: iso(row.created_at)!,
    last_updated_at: iso(row.updated_at ?? row.created_at)!,
    expires_at: iso(row.expires_at),
    last_reset_at: iso(row.last_reset_at),
    rotation_policy: row.rotation_period === null ? null : {
      rotation_period: row.rotation_period,
      next_rotation_at: iso(row.next_rotation_at),
      key_transition_period_ms: row.key_transition_period_ms,
    },
    rotation_period_days: row.rotation_period_days,
    previous_key_valid_until: inTransition ? iso(row.previous_valid_until) : null,
    has_pending_secret: row.pending_secret !== null,
    default_config_id: row.default_config_id,
  };
}

export function toPrincipal(row: KeyRow): Principal {
  const scopes = Object.freeze(parseScopes(row.scopes));
  const principal: Principal = {
    keyId: row.id,
    type: row.type,
    organisationId: row.organisation_id ?? undefined,
    workspaceId: row.workspace_id ?? undefined,
    scopes,
  };
  const role = roleOf(row, scopes);
  if (role !== undefined) principal.role = role;
  if (row.user_id !== null) principal['userId'] = row.user_id;
  if (row.default_config_id !== null) principal.defaultConfigId = row.default_config_id;
  return Object.freeze(principal);
}

/**
 * Owner keys are `owner`; a workspace-user key carries its member's workspace role; service keys
 * have no role of their own (their scopes decide), except that an organisation-service key holding
 * `*` is an organisation admin.
 */
function roleOf(row: KeyRow, scopes: readonly string[]): string | undefined {
  if (row.type === 'organisation-owner') return 'owner';
  if (row.type === 'workspace-user') return row.role ?? 'member';
  if (row.type === 'organisation-service' && scopes.includes('*')) return 'admin';
  return row.role ?? undefined;
}

function parseScopes(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}
