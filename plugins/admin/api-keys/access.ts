/**
 * Who may see and manage which key (on top of the route's scope):
 *   - organisation-level keys: every key of their organisation;
 *   - workspace keys: only keys of their own workspace (403 elsewhere); a workspace-user key of a
 *     `member` only its own user's keys, `manager` and `admin` every key of the workspace;
 *   - keys of another organisation do not exist for the caller (404).
 * Managing a key (update, delete, rotate, reading a pending secret) also needs the caller to hold
 * every scope of that key, and only an organisation owner manages an owner key: a rotation hands
 * out the key's secret, so it must never lift the caller above its own rights.
 */
import {
  Errors, hasScope, isOrganisationLevel, userIdOf, workspaceRoleOf, type ApiKeyView, type Principal,
} from '../../../core/index.js';

export function assertCanSee(principal: Principal, key: ApiKeyView): void {
  if (key.organisation_id !== (principal.organisationId ?? null)) throw notFound(key.id);
  if (isOrganisationLevel(principal)) return;
  if (key.workspace_id === null || key.workspace_id !== principal.workspaceId) {
    throw Errors.forbidden(`the API key does not belong to the workspace of key ${key.id}`);
  }
  if (workspaceRoleOf(principal, key.workspace_id) === 'member' && key.user_id !== userIdOf(principal)) {
    throw Errors.forbidden('a workspace member manages only their own API keys');
  }
}

export function assertCanManage(principal: Principal, key: ApiKeyView): void {
  assertCanSee(principal, key);
  if (key.type === 'organisation-owner' && principal.type !== 'organisation-owner') {
    throw Errors.forbidden('only an organisation owner key manages an organisation owner key');
  }
  assertCovers(principal, key.scopes);
}

/** 403 unless the caller holds every scope in `scopes` (nobody grants more than they hold). */
export function assertCovers(principal: Principal, scopes: readonly string[]): void {
  for (const scope of scopes) {
    if (!hasScope(principal, scope)) throw Errors.forbidden(`the API key cannot grant or manage the scope ${scope}, which it does not hold`);
  }
}

/** Reading a pending secret: an admin of the key's workspace, or an organisation-level key for organisation keys. */
export function assertAdminOf(principal: Principal, key: ApiKeyView): void {
  const admin = isOrganisationLevel(principal) || (key.workspace_id !== null && workspaceRoleOf(principal, key.workspace_id) === 'admin');
  if (!admin) throw Errors.forbidden('only an admin reads a pending API key secret');
}

export function notFound(id: string) {
  return Errors.notFound(`no API key with id "${id}"`, 'api_key_not_found');
}
