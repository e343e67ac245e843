/**
 * The principal of a person (people.md of the identity family): organisation owners and admins act
 * organisation-wide with every scope; anyone else acts in one workspace as a workspace member would
 * with a workspace-user key — the workspace named by `x-gw-workspace` (id or slug) when they are a
 * member there, else their only workspace.
 */
import { Errors, type Principal } from '../../../core/index.js';
import type { Directory } from '../../admin/workspaces/contract.js';
import { unauthorized } from './oidc.js';

export const WORKSPACE_HEADER = 'x-gw-workspace';

export interface PersonCall {
  /** `session:<id>` or `jwt:<sub>`: the caller as logs show it. */
  keyId: string;
  via: 'session' | 'jwt';
  organisationId: string;
  userId: string;
  /** The `x-gw-workspace` header, when sent. */
  workspace: string | undefined;
  /** Scopes of a person acting in a workspace (organisation owners and admins have `*`). */
  memberScopes: readonly string[];
}

export async function personPrincipal(directory: Directory, call: PersonCall): Promise<Principal> {
  const user = await directory.user(call.userId);
  if (!user || user.organisation_id !== call.organisationId) throw unauthorized('the person of this session no longer exists', 'person_unknown');
  // Read on every request, so a deactivation (SCIM) shows on the session's next request.
  if (!user.active) throw unauthorized(`${user.email} has been deactivated in the organisation: the session is refused`, 'person_deactivated');
  const base = { keyId: call.keyId, userId: user.id, organisationId: call.organisationId, via: call.via };
  if (user.role === 'owner' || user.role === 'admin') return { ...base, type: 'person', role: user.role, scopes: ['*'] };

  const memberships = await directory.memberships(user.id);
  let chosen: { workspaceId: string; role: string } | undefined;
  if (call.workspace !== undefined && call.workspace !== '') {
    const workspace = await directory.workspace(call.workspace, call.organisationId);
    chosen = workspace && memberships.find((m) => m.workspaceId === workspace.id);
    if (!chosen) throw Errors.forbidden(`header ${WORKSPACE_HEADER}: ${user.email} is not a member of workspace "${call.workspace}"`);
  } else if (memberships.length === 1) {
    chosen = memberships[0]!;
  } else {
    throw Errors.forbidden(memberships.length === 0
      ? `${user.email} is a member of no workspace: an admin adds them to one (header ${WORKSPACE_HEADER} names it then)`
      : `${user.email} belongs to several workspaces: name one in the ${WORKSPACE_HEADER} header (id or slug)`);
  }
  const workspace = await directory.workspace(chosen.workspaceId, call.organisationId);
  if (!workspace || workspace.status !== 'active') throw Errors.forbidden(`workspace ${chosen.workspaceId} is ${workspace?.status ?? 'gone'}`);
  return { ...base, type: 'workspace-user', workspaceId: workspace.id, role: chosen.role, scopes: call.memberScopes };
}
