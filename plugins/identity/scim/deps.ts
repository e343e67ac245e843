/** What the SCIM routes share. */
import type { DirectoryService, PeopleAdmin } from '../../admin/workspaces/ports.js';
import type { ScimGroupsRepo } from './groups-repo.js';
import type { MappingsRepo } from './mappings-repo.js';
import type { MembershipSync } from './memberships.js';
import type { ScimUsersRepo } from './users-repo.js';

export interface ScimDeps {
  users: ScimUsersRepo;
  groups: ScimGroupsRepo;
  mappings: MappingsRepo;
  sync: MembershipSync;
  /** admin.workspaces' services (ports.ts), looked up when called (late-service.ts). */
  people: PeopleAdmin;
  directory: DirectoryService;
  /** SCIM_MEMBERSHIP_USER_MODE=ON: group membership through Users, and `groups` in user answers. */
  membershipMode: boolean;
}

export const BASE = '/v1/scim/v2';
