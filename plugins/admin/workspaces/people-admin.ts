/**
 * PeopleAdmin: the writes a provisioning plugin (identity.scim) makes to people beyond finding or
 * creating them — their email and name, their workspace memberships (joining applies
 * `user_api_key_auto_create`, a role change carries over to their keys, leaving deletes their
 * workspace-user keys there), deactivation (the person stays, inactive), reactivation and deletion.
 * Provided as PeopleAdminService (contract.ts).
 */
import { Errors, type KeyStore } from '../../../core/index.js';
import { createDefaultUserKey } from './auto-key.js';
import type { WorkspaceDirectory } from './directory.js';
import type { PeopleRepo } from './people-repo.js';
import type { PeopleAdmin } from './contract.js';
import { isUniqueViolation } from './unique-violation.js';

export function peopleAdmin(people: PeopleRepo, directory: WorkspaceDirectory, keys: KeyStore, autoKeyScopes: readonly string[]): PeopleAdmin {
  return {
    async updatePerson(userId, patch) {
      const user = await people.user(userId);
      if (!user) return 'not_found';
      const email = patch.email?.toLowerCase();
      if (email !== undefined && email !== user.email) {
        const holder = await people.userByEmail(user.organisation_id, email);
        if (holder) return 'email_taken';
      }
      try {
        await people.updateUser(userId, { ...(email === undefined ? {} : { email }), ...(patch.name === undefined ? {} : { name: patch.name }) }, new Date().toISOString());
      } catch (e) {
        if (isUniqueViolation(e)) return 'email_taken';
        throw e;
      }
      return 'updated';
    },

    async memberships(userId) {
      return (await people.memberships(userId)).map((m) => ({ workspaceId: m.workspace_id, role: m.role }));
    },

    async setMembership(workspaceId, userId, role) {
      const workspace = directory.workspace(workspaceId);
      if (!workspace) throw Errors.notFound(`no workspace "${workspaceId}"`, 'workspace_not_found');
      const user = await people.user(userId);
      if (!user) throw Errors.notFound(`no user "${userId}"`, 'user_not_found');
      const current = await people.member(workspace.row.id, userId);
      const now = new Date().toISOString();
      if (current) {
        if (current.role !== role) {
          await people.setMemberRole(workspace.row.id, userId, role, now);
          await keys.setUserRole(userId, workspace.row.id, role);
        }
        return { joined: false, apiKeyId: null };
      }
      if (workspace.row.status !== 'active') throw Errors.invalidRequest(`workspace ${workspace.row.id} is ${workspace.row.status}`, null, 'workspace_archived');
      try {
        await people.addMember(workspace.row.id, userId, role, now);
      } catch (e) {
        // Joined meanwhile through another request: that membership stands, with this role.
        if (!isUniqueViolation(e)) throw e;
        await people.setMemberRole(workspace.row.id, userId, role, now);
        await keys.setUserRole(userId, workspace.row.id, role);
        return { joined: false, apiKeyId: null };
      }
      // As on POST /members: a joiner whose key cannot be made is not left half added.
      const key = await createDefaultUserKey(keys, directory.settings(workspace.row.id), { userId, email: user.email, name: user.name, role }, workspace, autoKeyScopes)
        .catch(async (e: unknown) => {
          await people.removeMember(workspace.row.id, userId);
          throw e;
        });
      return { joined: true, apiKeyId: key?.id ?? null };
    },

    async removeMembership(workspaceId, userId) {
      // Keys first: a failure after this leaves a member without keys, never keys without a member.
      const deletedKeys = await keys.deleteUserKeys(userId, workspaceId);
      const removed = await people.removeMember(workspaceId, userId);
      return { removed, deletedKeys };
    },

    async deactivatePerson(userId) {
      // Inactive first: from here on the person neither signs in nor calls, whatever fails after.
      await people.setActive(userId, false, new Date().toISOString());
      const deletedKeys = await keys.deleteUserKeys(userId);
      let removedMemberships = 0;
      for (const m of await people.memberships(userId)) {
        if (await people.removeMember(m.workspace_id, userId)) removedMemberships++;
      }
      return { removedMemberships, deletedKeys };
    },

    async reactivatePerson(userId) {
      return people.setActive(userId, true, new Date().toISOString());
    },

    async deletePerson(userId) {
      const deletedKeys = await keys.deleteUserKeys(userId);
      await people.deleteUser(userId);
      return { deletedKeys };
    },
  };
}
