/**
 * Where a person who is not an organisation owner or admin acts: one workspace, as a member would
 * with a workspace-user key. Shared by every way a person calls (SSO sessions, JWTs), so they
 * choose alike and refuse alike: the workspace `x-gw-workspace` names (id or slug; the person must
 * be a member there), else one the caller's own rule picks (a JWT's workspace claim), else the
 * person's only workspace; the chosen workspace must be active.
 */
import { Errors } from '../../../core/index.js';
import type { Directory } from '../../admin/workspaces/contract.js';

export const WORKSPACE_HEADER = 'x-gw-workspace';

export interface WorkspaceChoice {
  workspaceId: string;
  /** The person's role in it. */
  role: string;
}

export interface ChoiceRequest {
  organisationId: string;
  person: { id: string; email: string };
  /** The `x-gw-workspace` header, when sent. */
  header: string | undefined;
  /** Consulted when no header is sent, before the only-workspace rule (a JWT's workspace claim). */
  otherwise?: () => Promise<WorkspaceChoice | undefined>;
  /** How to tell a person of no workspace what to do (who can place them). */
  noWorkspaceHint: string;
}

export async function chooseWorkspace(directory: Directory, request: ChoiceRequest): Promise<WorkspaceChoice> {
  const { organisationId, person, header } = request;
  const memberships = await directory.memberships(person.id);
  let chosen: WorkspaceChoice | undefined;
  if (header !== undefined && header !== '') {
    const workspace = await directory.workspace(header, organisationId);
    const membership = workspace && memberships.find((m) => m.workspaceId === workspace.id);
    if (!membership) throw Errors.forbidden(`header ${WORKSPACE_HEADER}: ${person.email} is not a member of workspace "${header}"`);
    chosen = membership;
  } else {
    chosen = (await request.otherwise?.()) ?? (memberships.length === 1 ? memberships[0] : undefined);
  }
  if (!chosen) {
    throw Errors.forbidden(memberships.length === 0
      ? `${person.email} is a member of no workspace: ${request.noWorkspaceHint}`
      : `${person.email} belongs to several workspaces: name one in the ${WORKSPACE_HEADER} header (id or slug)`);
  }
  const workspace = await directory.workspace(chosen.workspaceId, organisationId);
  if (!workspace || workspace.status !== 'active') throw Errors.forbidden(`workspace ${chosen.workspaceId} is ${workspace?.status ?? 'gone'}`);
  return { workspaceId: workspace.id, role: chosen.role };
}
