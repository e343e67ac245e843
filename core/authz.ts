/**
 * Authorisation helpers shared by every admin route: scopes on the caller's key, and the workspace
 * boundary (a key never authorises outside its workspace). Organisation owners and admins have
 * full access. The control-plane plugins own the roles and settings; this file only decides.
 */
import { Errors } from './errors.js';
import type { Principal, RequestContext } from './types.js';

/** Organisation-level roles with full access. */
const FULL_ACCESS_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

/** Workspace roles, strongest first (spec §2.3: `admin`, `manager`, `member`). */
export const WORKSPACE_ROLES = ['admin', 'manager', 'member'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export function isOrganisationAdmin(principal: Principal): boolean {
  return principal.type === 'organisation-owner' || (principal.workspaceId === undefined && FULL_ACCESS_ROLES.has(principal.role ?? ''));
}

/** Whether the key is organisation-wide (not bound to one workspace). */
export function isOrganisationLevel(principal: Principal): boolean {
  return principal.workspaceId === undefined;
}

/**
 * Whether the scopes grant `scope`: `*`, the exact scope, `<resource>.*`, the bare `<resource>`
 * (e.g. `secret_references`), or `*.<action>` (e.g. `*.rotate`). `scope` may itself be a pattern:
 * then it asks whether the caller holds at least that pattern (used to refuse granting more than one holds).
 */
export function hasScope(principal: Principal, scope: string): boolean {
  if (isOrganisationAdmin(principal)) return true;
  const dot = scope.indexOf('.');
  const family = dot === -1 ? scope : scope.slice(0, dot);
  const action = dot === -1 ? '' : scope.slice(dot + 1);
  for (const granted of principal.scopes) {
    if (granted === '*' || granted === scope || granted === family || granted === `${family}.*` || (action && granted === `*.${action}`)) return true;
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

/**
 * The caller's role inside `workspaceId`: organisation-level and workspace-service keys act as
 * workspace admins (their scopes still bound them); a workspace-user key carries its member's role
 * (`principal.role`); undefined outside the key's workspace.
 */
export function workspaceRoleOf(principal: Principal, workspaceId: string): WorkspaceRole | undefined {
  if (!canUseWorkspace(principal, workspaceId)) return undefined;
  if (principal.type !== 'workspace-user') return 'admin';
  return principal.role === 'admin' || principal.role === 'manager' ? principal.role : 'member';
}

/** Whether `role` is `minimum` or stronger. */
export function roleAtLeast(role: WorkspaceRole | undefined, minimum: WorkspaceRole): boolean {
  return role !== undefined && WORKSPACE_ROLES.indexOf(role) <= WORKSPACE_ROLES.indexOf(minimum);
}

/** 403 unless the caller acts in `workspaceId` with `minimum` or a stronger role. */
export function requireWorkspaceRole(ctx: RequestContext, workspaceId: string, minimum: WorkspaceRole): Principal {
  const principal = requireWorkspace(ctx, workspaceId);
  if (!roleAtLeast(workspaceRoleOf(principal, workspaceId), minimum)) {
    throw Errors.forbidden(`the API key's workspace role does not allow this (needs ${minimum})`);
  }
  return principal;
}

/** The user a workspace-user key belongs to. */
export function userIdOf(principal: Principal): string | undefined {
  return typeof principal['userId'] === 'string' ? principal['userId'] : undefined;
}
