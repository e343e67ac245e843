/**
 * What group membership means for workspaces (issue 20 item 2): an active user in a mapped group is
 * a member of the mapped workspace with the mapped role, the highest when several of their groups
 * map to it. `sync` brings one user's memberships there: joining goes through PeopleAdmin (so
 * `user_api_key_auto_create` applies), a changed role carries over to their keys, and a workspace
 * no group maps them to any more (left the group, mapping deleted, deactivated) loses the
 * membership SCIM granted and their workspace-user keys there. Memberships made by hand in
 * workspaces no mapping names are left alone.
 */
import { nowIso, WORKSPACE_ROLES, type WorkspaceRole } from '../../../core/index.js';
import type { Directory, PeopleAdmin } from '../../admin/workspaces/contract.js';
import type { ScimGroupsRepo } from './groups-repo.js';
import type { MappingsRepo } from './mappings-repo.js';
import type { ScimUsersRepo } from './users-repo.js';

export function strongest(a: WorkspaceRole | undefined, b: WorkspaceRole): WorkspaceRole {
  return a === undefined || WORKSPACE_ROLES.indexOf(b) < WORKSPACE_ROLES.indexOf(a) ? b : a;
}

export class MembershipSync {
  constructor(
    private readonly users: ScimUsersRepo,
    private readonly groups: ScimGroupsRepo,
    private readonly mappings: MappingsRepo,
    private readonly people: PeopleAdmin,
    private readonly directory: Directory,
  ) {}

  /** One user's workspace memberships, as their groups and mappings say. */
  async sync(organisationId: string, userId: string): Promise<void> {
    const user = await this.users.get(organisationId, userId);
    const desired = new Map<string, WorkspaceRole>();
    if (user?.active === 1) {
      for (const m of await this.mappings.mappedFor(userId)) {
        desired.set(m.workspace_id, strongest(desired.get(m.workspace_id), m.role as WorkspaceRole));
      }
    }
    const granted = new Map((await this.mappings.grants(userId)).map((g) => [g.workspace_id, g.role]));
    for (const [workspaceId, role] of desired) {
      const workspace = await this.directory.workspace(workspaceId, organisationId);
      // An archived workspace takes nobody in; its grants stay until it is unmapped.
      if (!workspace || workspace.status !== 'active') continue;
      const member = await this.directory.member(workspaceId, userId);
      if (granted.get(workspaceId) === role && member?.role === role) continue;
      await this.people.setMembership(workspaceId, userId, role);
      await this.mappings.grant(userId, workspaceId, role, nowIso());
    }
    for (const workspaceId of granted.keys()) {
      if (desired.has(workspaceId)) continue;
      await this.people.removeMembership(workspaceId, userId);
      await this.mappings.revoke(userId, workspaceId);
    }
  }

  async syncAll(organisationId: string, userIds: Iterable<string>): Promise<void> {
    for (const userId of new Set(userIds)) await this.sync(organisationId, userId);
  }

  /** SCIM_MEMBERSHIP_USER_MODE: a user's groups set through the Users endpoint (sync the user after). */
  async setGroupsOfUser(organisationId: string, userId: string, groupIds: readonly string[]): Promise<void> {
    const now = nowIso();
    const current = new Set((await this.groups.groupsOf(userId)).map((g) => g.id));
    const wanted = new Set(groupIds);
    for (const id of wanted) {
      if (!current.has(id) && await this.groups.addMember(id, userId, now)) await this.groups.touch(organisationId, id, now);
    }
    for (const id of current) {
      if (!wanted.has(id) && await this.groups.removeMember(id, userId)) await this.groups.touch(organisationId, id, now);
    }
  }
}
