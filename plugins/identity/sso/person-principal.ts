/**
 * The principal of a person (people.md of the identity family): organisation owners and admins act
 * organisation-wide with every scope; anyone else acts in one workspace as a workspace member would
 * with a workspace-user key, in the workspace identity/common/workspace-choice.ts chooses.
 */
import type { Principal } from '../../../core/index.js';
import type { Directory } from '../../admin/workspaces/contract.js';
import { chooseWorkspace, WORKSPACE_HEADER } from '../common/workspace-choice.js';
import { unauthorized } from './oidc.js';

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

  const chosen = await chooseWorkspace(directory, {
    organisationId: call.organisationId,
    person: user,
    header: call.workspace,
    noWorkspaceHint: `an admin adds them to one (header ${WORKSPACE_HEADER} names it then)`,
  });
  return { ...base, type: 'workspace-user', workspaceId: chosen.workspaceId, role: chosen.role, scopes: call.memberScopes };
}
