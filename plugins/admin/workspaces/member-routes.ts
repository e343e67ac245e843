/**
 * Workspace membership (roles admin | manager | member, any case):
 *   GET    /v1/workspaces/:id/members               current_page, page_size
 *   POST   /v1/workspaces/:id/members               { user_id, role } → the membership, plus `api_key` when
 *                                                   user_api_key_auto_create made a default key
 *   PUT    /v1/workspaces/:id/members/:userId       { role }: the member's keys follow the new role
 *   DELETE /v1/workspaces/:id/members/:userId       also deletes the member's workspace-user keys there
 * Scopes: workspace_users.create | read | update | delete. Managers and admins of the workspace
 * manage members; a manager neither grants `admin` nor changes or removes an admin.
 */
import {
  Errors, listPage, noStoreJson, pageOf, parseBody, requireScope, requireWorkspaceRole, STRICT_PAGING, WORKSPACE_ROLES, workspaceRoleOf,
  type KeyStore, type Principal, type RequestContext, type RouteDef, type WorkspaceRole,
} from '../../../core/index.js';
import { requireActive, workspaceParam } from './access.js';
import { createDefaultUserKey } from './auto-key.js';
import type { Workspace, WorkspaceDirectory } from './directory.js';
import type { MemberRow, PeopleRepo } from './people-repo.js';
import { addMemberBody, roleFrom, updateMemberBody } from './schemas.js';
import { isUniqueViolation } from './unique-violation.js';
import { memberView } from './views.js';

export interface MemberRouteDeps {
  people: PeopleRepo;
  directory: WorkspaceDirectory;
  keys: KeyStore;
  /** Scopes of auto-created user keys. */
  autoKeyScopes: readonly string[];
}

export function memberRoutes(deps: MemberRouteDeps): RouteDef[] {
  const { people, directory, keys } = deps;

  /** The workspace, with the caller a manager or admin of it. */
  const managed = (ctx: RequestContext, scope: string): { principal: Principal; workspace: Workspace } => {
    const principal = requireScope(ctx, scope);
    const workspace = workspaceParam(ctx, principal, directory);
    requireWorkspaceRole(ctx, workspace.row.id, 'manager');
    return { principal, workspace };
  };

  const findMember = async (workspace: Workspace, userId: string): Promise<MemberRow> => {
    const member = await people.member(workspace.row.id, userId);
    if (!member) throw Errors.notFound(`user "${userId}" is not a member of workspace ${workspace.row.id}`, 'member_not_found');
    return member;
  };

  return [
    {
      method: 'GET', path: '/v1/workspaces/:id/members', body: 'none',
      handler: async (ctx) => {
        const workspace = workspaceParam(ctx, requireScope(ctx, 'workspace_users.read'), directory);
        const page = pageOf(ctx, STRICT_PAGING);
        const { total, rows } = await people.members(workspace.row.id, page.page * page.size, page.size);
        return noStoreJson(200, listPage(page, total, rows.map(memberView)));
      },
    },
    {
      method: 'POST', path: '/v1/workspaces/:id/members', body: 'json',
      handler: async (ctx) => {
        const { principal, workspace } = managed(ctx, 'workspace_users.create');
        const body = parseBody(ctx, addMemberBody);
        const role = roleFrom(body.role, WORKSPACE_ROLES, 'role', Errors.invalidBody);
        assertMayGrant(principal, workspace, role);
        requireActive(workspace);
        const user = await people.user(body.user_id);
        if (!user || user.organisation_id !== workspace.row.organisation_id) throw Errors.invalidBody('user_id', `no user "${body.user_id}" in the organisation`);
        const now = new Date().toISOString();
        await people.addMember(workspace.row.id, user.id, role, now).catch((e) => {
          throw isUniqueViolation(e) ? Errors.invalidRequest(`user ${user.id} is a member of workspace ${workspace.row.id} already`, 'user_id', 'duplicate') : e;
        });
        // The store has no transactions: a joiner whose key cannot be made is not left half added.
        const key = await createDefaultUserKey(keys, directory.settings(workspace.row.id), { userId: user.id, email: user.email, name: user.name, role }, workspace, deps.autoKeyScopes)
          .catch(async (e: unknown) => {
            await people.removeMember(workspace.row.id, user.id);
            throw e;
          });
        const member = await findMember(workspace, user.id);
        return noStoreJson(200, { ...memberView(member), api_key: key ? { id: key.id, has_pending_secret: key.has_pending_secret } : null });
      },
    },
    {
      method: 'PUT', path: '/v1/workspaces/:id/members/:userId', body: 'json',
      handler: async (ctx) => {
        const { principal, workspace } = managed(ctx, 'workspace_users.update');
        const body = parseBody(ctx, updateMemberBody);
        const role = roleFrom(body.role, WORKSPACE_ROLES, 'role', Errors.invalidBody);
        const member = await findMember(workspace, ctx.params['userId']!);
        assertMayGrant(principal, workspace, member.role as WorkspaceRole);
        assertMayGrant(principal, workspace, role);
        await people.setMemberRole(workspace.row.id, member.user_id, role, new Date().toISOString());
        await keys.setUserRole(member.user_id, workspace.row.id, role);
        return noStoreJson(200, memberView(await findMember(workspace, member.user_id)));
      },
    },
    {
      method: 'DELETE', path: '/v1/workspaces/:id/members/:userId', body: 'none',
      handler: async (ctx) => {
        const { principal, workspace } = managed(ctx, 'workspace_users.delete');
        const member = await findMember(workspace, ctx.params['userId']!);
        assertMayGrant(principal, workspace, member.role as WorkspaceRole);
        // Keys first: a failure after this leaves a member without keys, never keys without a member.
        const deletedKeys = await keys.deleteUserKeys(member.user_id, workspace.row.id);
        await people.removeMember(workspace.row.id, member.user_id);
        return noStoreJson(200, { object: 'workspace-member', workspace_id: workspace.row.id, user_id: member.user_id, deleted: true, deleted_api_keys: deletedKeys });
      },
    },
  ];
}

/** A manager grants, changes and removes managers and members only. */
function assertMayGrant(principal: Principal, workspace: Workspace, role: WorkspaceRole): void {
  if (role === 'admin' && workspaceRoleOf(principal, workspace.row.id) !== 'admin') {
    throw Errors.forbidden('only a workspace admin grants, changes or removes the admin role');
  }
}
