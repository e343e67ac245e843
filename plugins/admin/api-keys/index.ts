/**
 * admin.api-keys: the `/v1/api-keys` routes (routes.ts) over the key store of auth.api-key, with the
 * organisation's policy for workspace-user keys from admin.workspaces when it is loaded (policy.ts).
 * Depends on security.secret-box so that secrets made without a caller (scheduled rotation) can wait
 * sealed until an admin reads them once.
 */
import { Tokens, type DependencyContainer, type InjectionToken, type KeyStore, type Plugin, type PluginApi } from '../../../core/index.js';
import { DIRECTORY, ORG_SETTINGS, type Directory, type OrgSettings } from './ports.js';
import { apiKeyRoutes } from './routes.js';

export default class ApiKeysPlugin implements Plugin {
  static readonly manifest = {
    id: 'admin.api-keys',
    description: 'API keys: create, list, update, delete, rotate (/v1/api-keys)',
    dependsOn: ['auth.api-key', 'security.secret-box'],
  };

  apply(api: PluginApi): void {
    const keys = api.container.resolve<KeyStore>(Tokens.KeyStore);
    const routes = apiKeyRoutes({
      keys,
      directory: optional<Directory>(api.container, DIRECTORY),
      settings: optional<OrgSettings>(api.container, ORG_SETTINGS),
    });
    for (const route of routes) api.registries.routes.add(route);
  }
}

/** A service another plugin may register, possibly after this one: looked up on use, kept once found. */
function optional<T>(container: DependencyContainer, token: InjectionToken<T>): () => T | undefined {
  let found: T | undefined;
  return () => {
    if (found === undefined && container.isRegistered(token, true)) found = container.resolve<T>(token);
    return found;
  };
}
