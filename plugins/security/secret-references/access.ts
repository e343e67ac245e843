/**
 * Who may do what with secret references. Organisation owners and admins may do everything (core
 * authz); other keys need the scope `secret_references.<action>` (create, list, read, update,
 * delete). A workspace key sees the references allowed in its workspace and writes only those
 * limited to exactly its workspace; a workspace `member` never writes.
 */
import { Errors, requireScope, type Principal, type RequestContext } from '../../../core/index.js';
import { allowedIn, type SecretReference } from './record.js';

export type WriteAction = 'create' | 'update' | 'delete';

export function organisationOf(principal: Principal): string {
  return principal.organisationId ?? 'default';
}

export function authorizeWrite(ctx: RequestContext, action: WriteAction): Principal {
  const principal = requireScope(ctx, `secret_references.${action}`);
  if (principal.workspaceId !== undefined && principal.type === 'workspace-user' && principal.role?.toLowerCase() === 'member') {
    throw Errors.forbidden('workspace members cannot write secret references');
  }
  return principal;
}

export function requireRead(ctx: RequestContext, action: 'list' | 'read'): Principal {
  return requireScope(ctx, `secret_references.${action}`);
}

/** Whether the caller may see the reference (read routes answer 404 otherwise, revealing nothing). */
export function canSee(principal: Principal, reference: SecretReference): boolean {
  return reference.organisationId === organisationOf(principal) && allowedIn(reference, principal.workspaceId);
}

/** A workspace key writes only references limited to exactly its own workspace. */
export function requireOwnWorkspace(principal: Principal, reference: SecretReference): void {
  const ws = principal.workspaceId;
  if (ws === undefined) return;
  const own = !reference.allowAllWorkspaces && reference.allowedWorkspaces.length === 1 && reference.allowedWorkspaces[0] === ws;
  if (!own) throw Errors.forbidden(`secret reference "${reference.slug}" is not limited to workspace ${ws}: only an organisation key may change it`);
}
