/**
 * Authorisation helpers shared by every admin route: scopes on the caller's key, and the workspace
 * boundary (a key never authorises outside its workspace). Organisation owners and admins have
 * full access. The control-plane plugins own the roles and settings; this file only decides.
 */
import { Errors } from './errors.js';
import type { Principal, RequestContext } from './types.js';

/** Organisation-level roles with full access. */
const FULL_ACCESS_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

export function isOrganisationAdmin(principal: Principal): boolean {
  return principal.type === 'organisation-owner' || (principal.workspaceId === undefined && FULL_ACCESS_ROLES.has(principal.role ?? ''));
}

/** Whether the scopes grant `scope` (`*`, the exact scope, or `<resource>.*`). */
export function hasScope(principal: Principal, scope: string): boolean {
  if (isOrganisationAdmin(principal)) return true;
  const dot = scope.indexOf('.');
  const family = dot === -1 ? scope : scope.slice(0, dot);
  const action = dot === -1 ? '' : scope.slice(dot + 1);
  for (const granted of principal.scopes) {
    if (granted === '*' || granted === scope || granted === `${family}.*` || (action && granted === `*.${action}`)) return true;
  }
  return false;
}

/** The caller, or 401 (routes behind onRequest always have one). */
export function principalOf(ctx: RequestContext): Principal {
  if (!ctx.principal) throw Errors.unauthorized();
  return ctx.principal;
}

/** 403 unless the caller's key grants `scope`. */
export function requireScope(ctx: RequestContext, scope: string): Principal {
  const principal = principalOf(ctx);
  if (!hasScope(principal, scope)) throw Errors.forbidden(`the API key lacks the scope ${scope}`);
  return principal;
}

/** Whether the caller may act in `workspaceId`: organisation-level keys anywhere in their organisation. */
export function canUseWorkspace(principal: Principal, workspaceId: string): boolean {
  return principal.workspaceId === undefined || principal.workspaceId === workspaceId;
}

/** 403 unless the caller may act in `workspaceId`. */
export function requireWorkspace(ctx: RequestContext, workspaceId: string): Principal {
  const principal = principalOf(ctx);
  if (!canUseWorkspace(principal, workspaceId)) throw Errors.forbidden(`the API key does not belong to workspace ${workspaceId}`);
  return principal;
}
