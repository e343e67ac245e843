/**
 * identity.scim: SCIM 2.0 provisioning (RFC 7643/7644) at /v1/scim/v2 — Users, Groups and discovery —
 * and group-to-workspace mappings at /v1/scim/workspaces (spec §2.3 v1.15.0, §4.16, §7). People are
 * admin.workspaces' users: created through its Directory service (findOrCreatePerson), changed only
 * through its PeopleAdmin service. Keys with `scim.*` authenticate as `Authorization: Bearer <key>`
 * or `x-gw-api-key` (auth.ts); every error under /v1/scim/v2 is answered in the SCIM error schema.
 */
import {
  Services, Stage, type Plugin, type PluginApi,
} from '../../../core/index.js';
import { DirectoryService, PeopleAdminService } from '../../admin/workspaces/contract.js';
import { tapBearerKeys } from './auth.js';
import { BASE, type ScimDeps } from './deps.js';
import { discoveryRoutes } from './discovery-routes.js';
import { ScimGroupsRepo } from './groups-repo.js';
import { groupRoutes } from './groups-routes.js';
import { lateService } from './late-service.js';
import { mappingRoutes } from './mapping-routes.js';
import { MappingsRepo } from './mappings-repo.js';
import { MembershipSync } from './memberships.js';
import { MIGRATIONS } from './migrations.js';
import { asScimError } from './scim-errors.js';
import { userRoutes } from './users-routes.js';
import { ScimUsersRepo } from './users-repo.js';

export default class ScimPlugin implements Plugin {
  static readonly manifest = {
    id: 'identity.scim',
    description: 'SCIM 2.0 provisioning of users and groups (/v1/scim/v2) and group-to-workspace mappings (/v1/scim/workspaces)',
    // admin.workspaces and auth.api-key are used through their services, looked up when called
    // (late-service.ts): a gateway composed without them still boots.
    requires: [Services.Records],
  };

  async apply(api: PluginApi): Promise<void> {
    const store = api.services.get(Services.Records);
    await store.migrate('identity.scim', MIGRATIONS);
    const keys = lateService(api.services, Services.KeyStore, 'auth.api-key');
    const people = lateService(api.services, PeopleAdminService, 'admin.workspaces');
    const directory = lateService(api.services, DirectoryService, 'admin.workspaces');
    const users = new ScimUsersRepo(store);
    const groups = new ScimGroupsRepo(store);
    const mappings = new MappingsRepo(store);
    const deps: ScimDeps = {
      users, groups, mappings, people, directory,
      sync: new MembershipSync(users, groups, mappings, people, directory),
      membershipMode: api.settings.env['SCIM_MEMBERSHIP_USER_MODE']?.toUpperCase() === 'ON',
    };

    tapBearerKeys(api, keys);
    api.hooks.respond.tap({ name: api.id, stage: Stage.LATE }, (response, ctx) =>
      ctx.request.path === BASE || ctx.request.path.startsWith(`${BASE}/`) ? asScimError(response) : response);

    for (const route of [...userRoutes(deps), ...groupRoutes(deps), ...discoveryRoutes(), ...mappingRoutes(deps)]) {
      api.registries.routes.add(route);
    }
  }
}
