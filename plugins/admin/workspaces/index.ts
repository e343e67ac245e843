/**
 * admin.workspaces: the organisation, its workspaces, users and memberships, and the organisation
 * settings with workspace overrides (routes in *-routes.ts). A fresh store holds one organisation
 * (the one of the bootstrap owner key) with one default workspace, slug `default`. Registers the
 * OrgSettings and Directory services (services.ts) and PeopleAdmin (people-admin.ts) for other plugins.
 */
import { Services, MAX_TIMER_MS, timeOrderedId, Tokens, Type, changesIn, type KeyStore, type Plugin, type PluginApi, type RecordStore, type Static } from '../../../core/index.js';
import { WorkspaceDirectory } from './directory.js';
import { memberRoutes } from './member-routes.js';
import { MIGRATIONS } from './migrations.js';
import { PeopleRepo } from './people-repo.js';
import { peopleAdmin } from './people-admin.js';
import { DIRECTORY, ORG_SETTINGS, PEOPLE_ADMIN } from './ports.js';
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
    requires: [Services.Records], dependsOn: ['auth.api-key', 'security.secret-box'],
    options: Options,
  };

  #timer?: NodeJS.Timeout;

  async apply(api: PluginApi<Options>): Promise<void> {
    const store = api.container.resolve<RecordStore>(Tokens.RecordStore);
    const keys = api.container.resolve<KeyStore>(Tokens.KeyStore);
    await store.migrate('admin.workspaces', MIGRATIONS);
    const repo = new WorkspaceRepo(store);
    const people = new PeopleRepo(store);
    await seedOrganisation(repo, keys);
    const directory = new WorkspaceDirectory(repo, keys);
    await directory.load();
    directory.follow(changesIn(api.container), (e) => api.logger.error({ err: e }, 'reloading workspaces failed'));

    api.container.register(ORG_SETTINGS, { useValue: orgSettingsService(directory) });
    api.container.register(DIRECTORY, { useValue: directoryService(directory, people, keys) });
    api.container.register(PEOPLE_ADMIN, { useValue: peopleAdmin(people, directory, keys, api.options.autoKeyScopes) });

    const routes = [
      ...workspaceRoutes(repo, directory),
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
