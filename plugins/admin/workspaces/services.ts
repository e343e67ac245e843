/**
 * The services other plugins use (contract.ts): OrgSettings (effective settings, from
 * memory) and Directory. `workspace` is answered from memory; the others read the store (admin
 * paths) or cache briefly. The last three Directory methods write: identity plugins (JWT callers,
 * SSO, SCIM) create people as they arrive.
 */
import { timeOrderedId, type KeyStore } from '../../../core/index.js';
import type { Directory, OrgSettings, WorkspaceRef } from './contract.js';
import type { WorkspaceDirectory } from './directory.js';
import type { PeopleRepo } from './people-repo.js';
import { isUniqueViolation } from './unique-violation.js';

const KEY_NAME_TTL_MS = 60_000;
const KEY_NAME_MAX = 10_000;

export function orgSettingsService(directory: WorkspaceDirectory): OrgSettings {
  return { get: async (workspaceId, organisationId) => directory.settings(workspaceId, organisationId) };
}

export function directoryService(directory: WorkspaceDirectory, people: PeopleRepo, keys: KeyStore): Directory {
  const refs = new WeakMap<object, WorkspaceRef>();
  const names = new Map<string, { name: string | undefined; until: number }>();
  return {
    async workspace(idOrSlug, organisationId) {
      const workspace = directory.workspace(idOrSlug, organisationId);
      if (!workspace) return undefined;
      // One frozen ref per loaded row: callers on a hot path allocate nothing.
      let ref = refs.get(workspace.row);
      if (!ref) {
        const row = workspace.row;
        ref = Object.freeze({ id: row.id, slug: row.slug, name: row.name, organisation_id: row.organisation_id, status: row.status, is_default: row.is_default === 1, default_config_id: row.default_config_id });
        refs.set(row, ref);
      }
      return ref;
    },
    async member(workspaceId, userId) {
      const row = await people.member(workspaceId, userId);
      return row ? { role: row.role } : undefined;
    },
    async user(id) {
      const row = await people.user(id);
      return row ? { id: row.id, email: row.email, name: row.name, role: row.role, organisation_id: row.organisation_id, active: row.active === 1 } : undefined;
    },
    async keyName(keyId) {
      const now = Date.now();
      const hit = names.get(keyId);
      if (hit && hit.until > now) return hit.name;
      const name = (await keys.get(keyId))?.name;
      if (names.size >= KEY_NAME_MAX) names.delete(names.keys().next().value!);
      names.set(keyId, { name, until: now + KEY_NAME_TTL_MS });
      return name;
    },
    keysOfUser: (userId) => keys.idsOfUser(userId),
    async findOrCreatePerson(organisationId, person) {
      const email = person.email.toLowerCase();
      const known = await people.userByEmail(organisationId, email);
      if (known) return { id: known.id, email: known.email, role: known.role, created: false, active: known.active === 1 };
      const now = new Date().toISOString();
      const row = { id: timeOrderedId(), organisation_id: organisationId, email, name: person.name ?? null, role: 'member', created_at: now, last_updated_at: now };
      try {
        await people.insertUser(row);
      } catch (e) {
        // Two first requests of one person at once: the other one created them.
        const raced = isUniqueViolation(e) ? await people.userByEmail(organisationId, email) : undefined;
        if (!raced) throw e;
        return { id: raced.id, email: raced.email, role: raced.role, created: false, active: raced.active === 1 };
      }
      return { id: row.id, email, role: row.role, created: true, active: true };
    },
    async memberships(userId) {
      return (await people.memberships(userId)).map((m) => ({ workspaceId: m.workspace_id, role: m.role }));
    },
    async joinWorkspace(workspaceId, userId, role) {
      const known = await people.member(workspaceId, userId);
      if (known) return { role: known.role, joined: false };
      try {
        await people.addMember(workspaceId, userId, role, new Date().toISOString());
      } catch (e) {
        const raced = isUniqueViolation(e) ? await people.member(workspaceId, userId) : undefined;
        if (!raced) throw e;
        return { role: raced.role, joined: false };
      }
      return { role, joined: true };
    },
  };
}
