/**
 * The read-only services other plugins resolve (with `container.isRegistered(token, true)`):
 *   Symbol.for('gw.OrgSettings') → { get(workspaceId?, organisationId?) }: effective settings, from memory;
 *   Symbol.for('gw.Directory')   → { workspace(idOrSlug, organisationId?), member, user, keyName, keysOfUser }.
 * `workspace` is answered from memory; the others read the store (admin paths) or cache briefly.
 */
import { timeOrderedId, type KeyStore } from '../../../core/index.js';
import type { WorkspaceDirectory } from './directory.js';
import type { PeopleRepo } from './people-repo.js';
import { isUniqueViolation } from './unique-violation.js';
import type { Settings } from './settings.js';

export interface WorkspaceRef {
  id: string;
  slug: string;
  name: string;
  organisation_id: string;
  status: string;
  is_default: boolean;
}

export interface OrgSettingsService {
  get(workspaceId?: string, organisationId?: string): Promise<Settings>;
}

export interface DirectoryService {
  workspace(idOrSlug: string, organisationId?: string): Promise<WorkspaceRef | undefined>;
  member(workspaceId: string, userId: string): Promise<{ role: string } | undefined>;
  user(id: string): Promise<{ id: string; email: string; name: string | null; role: string; organisation_id: string } | undefined>;
  keyName(keyId: string): Promise<string | undefined>;
  /** Every key a user holds or held (a member's "own keys" in logs and analytics). */
  keysOfUser(userId: string): Promise<readonly string[]>;
  /** The person with this email (compared lower-case) in the organisation; a new one is an organisation `member`. */
  findOrCreatePerson(organisationId: string, person: { email: string; name?: string }): Promise<{ id: string; email: string; role: string; created: boolean }>;
}

const KEY_NAME_TTL_MS = 60_000;
const KEY_NAME_MAX = 10_000;

export function orgSettingsService(directory: WorkspaceDirectory): OrgSettingsService {
  return { get: async (workspaceId, organisationId) => directory.settings(workspaceId, organisationId) };
}

export function directoryService(directory: WorkspaceDirectory, people: PeopleRepo, keys: KeyStore): DirectoryService {
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
        ref = Object.freeze({ id: row.id, slug: row.slug, name: row.name, organisation_id: row.organisation_id, status: row.status, is_default: row.is_default === 1 });
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
      return row ? { id: row.id, email: row.email, name: row.name, role: row.role, organisation_id: row.organisation_id } : undefined;
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
      const found = await people.userByEmail(organisationId, email);
      if (found) return { id: found.id, email: found.email, role: found.role, created: false };
      const now = new Date().toISOString();
      const row = { id: timeOrderedId(), organisation_id: organisationId, email, name: person.name ?? null, role: 'member', created_at: now, last_updated_at: now };
      try {
        await people.insertUser(row);
      } catch (e) {
        // Another request made the same person first: theirs is the one.
        const winner = isUniqueViolation(e) ? await people.userByEmail(organisationId, email) : undefined;
        if (!winner) throw e;
        return { id: winner.id, email: winner.email, role: winner.role, created: false };
      }
      return { id: row.id, email, role: row.role, created: true };
    },
  };
}
