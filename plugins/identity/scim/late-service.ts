/**
 * A service another plugin registers, looked up when first called: identity.scim then boots in a
 * gateway composed without admin.workspaces (or auth.api-key) and answers its routes with
 * 500 plugin_not_loaded naming what to load, as the gateway does for any request that needs a
 * missing plugin.
 */
import { Errors, type DependencyContainer } from '../../../core/index.js';

export function lateService<T extends object>(container: DependencyContainer, token: symbol | string, plugin: string): T {
  const resolve = (): T => {
    if (!container.isRegistered(token, true)) throw Errors.pluginNotLoaded(`SCIM needs the plugin ${plugin}: load it`);
    return container.resolve<T>(token);
  };
  return new Proxy({} as T, {
    get(_target, name) {
      const service = resolve() as Record<string | symbol, unknown>;
      const member = service[name];
      return typeof member === 'function' ? member.bind(service) : member;
    },
  });
}
