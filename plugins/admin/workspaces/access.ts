/**
 * Who may do what here, on top of each route's scope:
 *   - workspaces: create and archive from organisation-level keys; update by an admin of the workspace;
 *     archived ones listed only for organisation owners and admins;
 *   - users: organisation-level keys only; only an owner makes or removes owners, only an admin admins;
 *   - memberships: managers and admins of the workspace; a manager neither grants nor touches `admin`;
 *   - settings: organisation-level keys write them; workspace overrides too.
 * Records of another organisation do not exist for the caller (404); another workspace's are 403.
 */
import { Errors, isOrganisationLevel, requireWorkspace, type Principal, type RequestContext } from '../../../core/index.js';
import type { Workspace, WorkspaceDirectory } from './directory.js';

export function organisationOf(principal: Principal): string {
  if (principal.organisationId === undefined) throw Errors.forbidden('the API key belongs to no organisation');
  return principal.organisationId;
}

export function requireOrganisationLevel(principal: Principal, action: string): void {
  if (!isOrganisationLevel(principal)) throw Errors.forbidden(`a workspace key cannot ${action}`);
}

/** The workspace named by the `:id` path parameter (id or slug), inside the caller's reach. */
export function workspaceParam(ctx: RequestContext, principal: Principal, directory: WorkspaceDirectory): Workspace {
  const idOrSlug = ctx.params['id']!;
  const workspace = directory.workspace(idOrSlug, organisationOf(principal));
  if (!workspace) throw Errors.notFound(`no workspace "${idOrSlug}"`, 'workspace_not_found');
  requireWorkspace(ctx, workspace.row.id);
  return workspace;
}

export function requireActive(workspace: Workspace): void {
  if (workspace.row.status !== 'active') throw Errors.invalidRequest(`workspace ${workspace.row.id} is ${workspace.row.status}`, null, 'workspace_archived');
}
