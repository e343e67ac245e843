/**
 * A service another plugin registers, looked up when first called: identity.scim then boots in a
 * gateway composed without admin.workspaces (or auth.api-key) and answers its routes with
 * 500 plugin_not_loaded naming what to load, as the gateway does for any request that needs a
 * missing plugin.
 */
import { serviceOnUse, type PluginServices, type ServiceKey } from '../../../core/index.js';

export function lateService<T extends object>(services: PluginServices, key: ServiceKey<T>, plugin: string): T {
  const resolve = serviceOnUse(services, key, `SCIM needs the plugin ${plugin}: load it`);
  return new Proxy({} as T, {
    get(_target, name) {
      const service = resolve() as Record<string | symbol, unknown>;
      const member = service[name];
      return typeof member === 'function' ? member.bind(service) : member;
    },
  });
}
