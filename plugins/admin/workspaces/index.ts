/**
 * admin.workspaces: the organisation, its workspaces, users and memberships, and the organisation
 * settings with workspace overrides (routes in *-routes.ts). A fresh store holds one organisation
 * (the one of the bootstrap owner key) with one default workspace, slug `default`. Registers the
 * OrgSettings and Directory services (services.ts) and PeopleAdmin (people-admin.ts) for other plugins.
 */
import { Services, MAX_TIMER_MS, timeOrderedId, Type, changesIn, type KeyStore, type Plugin, type PluginApi, type Static } from '../../../core/index.js';
import { DirectoryService, OrgSettingsService, PeopleAdminService } from './contract.js';
import { StoredConfigsService } from '../configs/contract.js';
import { WorkspaceDirectory } from './directory.js';
import { memberRoutes } from './member-routes.js';
import { MIGRATIONS } from './migrations.js';
import { PeopleRepo } from './people-repo.js';
import { peopleAdmin } from './people-admin.js';
import { directoryService, orgSettingsService } from './services.js';
import { settingsRoutes } from './settings-routes.js';
import { userRoutes } from './user-routes.js';
import { workspaceRoutes } from './workspace-routes.js';
import { WorkspaceRepo } from './workspace-repo.js';

const Options = Type.Object({
  /** Scopes of the default workspace-user key made when a user joins a workspace (user_api_key_auto_create). */
  autoKeyScopes: Type.Array(Type.String({ minLength: 1 }), {
    default: ['api_keys.read', 'api_keys.rotate', 'workspaces.read', 'workspace_users.read'],
  }),
  /** How often organisations and workspaces are re-read, to see changes made by other instances; 0: never. */
  refreshIntervalMs: Type.Integer({ minimum: 0, maximum: MAX_TIMER_MS, default: 30_000 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

export default class WorkspacesPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'admin.workspaces',
    description: 'Workspaces, users, memberships and organisation settings; the OrgSettings and Directory services',
    requires: [Services.Records, Services.KeyStore], provides: [DirectoryService, OrgSettingsService, PeopleAdminService], dependsOn: ['auth.api-key', 'security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const store = api.services.get(Services.Records);
    const keys = api.services.get(Services.KeyStore);
    await store.migrate('admin.workspaces', MIGRATIONS);
    const repo = new WorkspaceRepo(store);
    const people = new PeopleRepo(store);
    await seedOrganisation(repo, keys);
    const directory = new WorkspaceDirectory(repo, keys);
    await directory.load();
    directory.follow(changesIn(api.services), (e) => api.logger.error({ err: e }, 'reloading workspaces failed'));

    api.services.provide(OrgSettingsService, orgSettingsService(directory));
    api.services.provide(DirectoryService, directoryService(directory, people, keys));
    api.services.provide(PeopleAdminService, peopleAdmin(people, directory, keys, api.options.autoKeyScopes));

    const routes = [
      // Stored configs (default_config_id) are optional and may be provided after this plugin: looked up on use.
      ...workspaceRoutes(repo, directory, () => api.services.find(StoredConfigsService)),
      ...userRoutes(people, keys),
      ...memberRoutes({ people, directory, keys, autoKeyScopes: api.options.autoKeyScopes }),
      ...settingsRoutes(repo, directory),
    ];
    for (const route of routes) api.registries.routes.add(route);

    if (api.options.refreshIntervalMs > 0) {
      this.#timer = setInterval(() => {
        directory.load().catch((e) => api.logger.error({ err: e }, 'reloading workspaces failed'));
      }, api.options.refreshIntervalMs);
      this.#timer.unref();
    }
  }

  close(): void {
    clearInterval(this.#timer);
  }
}

/** A fresh store: the organisation of the bootstrap owner key, with its default workspace. */
async function seedOrganisation(repo: WorkspaceRepo, keys: KeyStore): Promise<void> {
  if ((await repo.organisations()).length > 0) return;
  const organisationId = (await keys.ownerOrganisationId()) ?? timeOrderedId();
  const now = new Date().toISOString();
  await repo.seedOrganisation(organisationId, 'Default organisation', timeOrderedId(), now);
}
