/**
 * The services admin.workspaces provides, as other plugins use them: import this file (the key, or
 * the types) and nothing else of the family. Both are optional for their consumers: without the
 * control plane, workspace ids are taken as given and no organisation setting applies.
 */
import { serviceKey } from '../../../core/index.js';
import type { Settings } from './settings.js';

export type { Settings as OrganisationSettings };

export interface WorkspaceRef {
  id: string;
  slug: string;
  name: string;
  organisation_id: string;
  status: string;
  is_default: boolean;
}

/** Workspaces (answered from memory), members, users and key names. */
export interface Directory {
  /** By id, or by slug within `organisationId`. */
  workspace(idOrSlug: string, organisationId?: string): Promise<WorkspaceRef | undefined>;
  /** A user's membership of a workspace, with the role lower-cased. */
  member(workspaceId: string, userId: string): Promise<{ role: string } | undefined>;
  user(id: string): Promise<{ id: string; email: string; name: string | null; role: string; organisation_id: string } | undefined>;
  keyName(keyId: string): Promise<string | undefined>;
  /** Every key a user holds or held (a member's "own keys" in logs and analytics). */
  keysOfUser(userId: string): Promise<readonly string[]>;
}

/** Effective organisation settings with a workspace's overrides, from memory. */
export interface OrgSettings {
  get(workspaceId?: string, organisationId?: string): Promise<Settings>;
}

export const DirectoryService = serviceKey<Directory>('directory');
export const OrgSettingsService = serviceKey<OrgSettings>('org-settings');
