/**
 * admin.api-keys: the `/v1/api-keys` routes (routes.ts) over the key store of auth.api-key, with the
 * organisation's policy for workspace-user keys from admin.workspaces when it is loaded (policy.ts).
 * Depends on security.secret-box so that secrets made without a caller (scheduled rotation) can wait
 * sealed until an admin reads them once.
 */
import { Services, type Plugin, type PluginApi } from '../../../core/index.js';
import { StoredConfigsService } from '../configs/contract.js';
import { DirectoryService, OrgSettingsService } from '../workspaces/contract.js';
import { apiKeyRoutes } from './routes.js';

export default class ApiKeysPlugin implements Plugin {
  static readonly manifest = {
    id: 'admin.api-keys',
    description: 'API keys: create, list, update, delete, rotate (/v1/api-keys)',
    requires: [Services.KeyStore],
    dependsOn: ['auth.api-key', 'security.secret-box'],
  };

  apply(api: PluginApi): void {
    // The workspaces services are optional and may be provided after this plugin: looked up on use.
    const routes = apiKeyRoutes({
      keys: api.services.get(Services.KeyStore),
      directory: () => api.services.find(DirectoryService),
      settings: () => api.services.find(OrgSettingsService),
      configs: () => api.services.find(StoredConfigsService),
    });
    for (const route of routes) api.registries.routes.add(route);
  }
}

