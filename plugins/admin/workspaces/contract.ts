/**
 * The services admin.workspaces provides, as other plugins use them: import this file (the key, or
 * the types) and nothing else of the family. Both are optional for their consumers: without the
 * control plane, workspace ids are taken as given and no organisation setting applies.
 */
import { serviceKey, type WorkspaceRole } from '../../../core/index.js';
import type { Settings } from './settings.js';

export type { Settings as OrganisationSettings };

export interface WorkspaceRef {
  id: string;
  slug: string;
  name: string;
  organisation_id: string;
  status: string;
  is_default: boolean;
  /** The stored config (id) that routes requests of its keys that name none, unless the key has its own. */
  default_config_id?: string | null;
}

/** Workspaces (answered from memory), members, users and key names. */
export interface Directory {
  /** By id, or by slug within `organisationId`. */
  workspace(idOrSlug: string, organisationId?: string): Promise<WorkspaceRef | undefined>;
  /** A user's membership of a workspace, with the role lower-cased. */
  member(workspaceId: string, userId: string): Promise<{ role: string } | undefined>;
  /** `active` is false while the person is deactivated (SCIM): they neither sign in nor call. */
  user(id: string): Promise<{ id: string; email: string; name: string | null; role: string; organisation_id: string; active: boolean } | undefined>;
  keyName(keyId: string): Promise<string | undefined>;
  /** Every key a user holds or held (a member's "own keys" in logs and analytics). */
  keysOfUser(userId: string): Promise<readonly string[]>;
  /**
   * The person of the organisation with this email (compared lower-case); a new one is an organisation
   * `member`, active. A deactivated person is found as they are (`active: false`), never recreated.
   */
  findOrCreatePerson(organisationId: string, person: { email: string; name?: string }): Promise<{ id: string; email: string; role: string; created: boolean; active: boolean }>;
  /** The workspaces a user belongs to, with their role in each. */
  memberships(userId: string): Promise<readonly { workspaceId: string; role: string }[]>;
  /** Makes the user a member of the workspace with `role` unless they are one already; answers their role there. */
  joinWorkspace(workspaceId: string, userId: string, role: string): Promise<{ role: string; joined: boolean }>;
}

/** Effective organisation settings with a workspace's overrides, from memory. */
export interface OrgSettings {
  get(workspaceId?: string, organisationId?: string): Promise<Settings>;
}

/**
 * The writes a provisioning plugin (identity.scim) makes to people beyond finding or creating them:
 * email and name, workspace memberships (joining applies `user_api_key_auto_create`, a role change
 * carries over to their keys, leaving deletes their workspace-user keys there), deactivation and
 * reactivation, deletion.
 */
export interface PeopleAdmin {
  /** Changes a person's email (lower-cased here) and/or name: `email_taken` when another person of the organisation has it. */
  updatePerson(userId: string, patch: { email?: string; name?: string | null }): Promise<'updated' | 'email_taken' | 'not_found'>;
  /** The workspaces the person belongs to, with their role there. */
  memberships(userId: string): Promise<Array<{ workspaceId: string; role: string }>>;
  /**
   * Makes the person a member of the (active) workspace with `role`: a joiner gets the default key
   * when `user_api_key_auto_create` is on; a member whose role differs gets it, and so do their keys.
   */
  setMembership(workspaceId: string, userId: string, role: WorkspaceRole): Promise<{ joined: boolean; apiKeyId: string | null }>;
  /** Ends a membership and deletes the person's workspace-user keys in that workspace. */
  removeMembership(workspaceId: string, userId: string): Promise<{ removed: boolean; deletedKeys: number }>;
  /**
   * Marks the person inactive (Directory answers `active: false`: no sign-in, no JWT call), ends every
   * membership and deletes all their workspace-user keys; the person stays.
   */
  deactivatePerson(userId: string): Promise<{ removedMemberships: number; deletedKeys: number }>;
  /** Marks the person active again (memberships are the caller's to restore); false when there is no such person. */
  reactivatePerson(userId: string): Promise<boolean>;
  /** Deletes the person, their memberships and their workspace-user keys. */
  deletePerson(userId: string): Promise<{ deletedKeys: number }>;
}

export const DirectoryService = serviceKey<Directory>('directory');
export const PeopleAdminService = serviceKey<PeopleAdmin>('people-admin');
export const OrgSettingsService = serviceKey<OrgSettings>('org-settings');
