/** What the SCIM routes share. */
import type { Directory, PeopleAdmin } from '../../admin/workspaces/contract.js';
import type { ScimGroupsRepo } from './groups-repo.js';
import type { MappingsRepo } from './mappings-repo.js';
import type { MembershipSync } from './memberships.js';
import type { ScimUsersRepo } from './users-repo.js';

export interface ScimDeps {
  users: ScimUsersRepo;
  groups: ScimGroupsRepo;
  mappings: MappingsRepo;
  sync: MembershipSync;
  /** admin.workspaces' services (its contract.ts), looked up when called (late-service.ts). */
  people: PeopleAdmin;
  directory: Directory;
  /** SCIM_MEMBERSHIP_USER_MODE=ON: group membership through Users, and `groups` in user answers. */
  membershipMode: boolean;
}

export const BASE = '/v1/scim/v2';
