/**
 * admin.gateway-info: `GET /v1/gateway/plugins`, what this gateway is made of (the same JSON as
 * `npm start -- --describe=json`): each hook with its taps, each registry's entries, each plugin's
 * services. For organisation owners and admins only: it shows the gateway's whole composition.
 */
import { Errors, isOrganisationAdmin, noStoreJson, principalOf, Services, type Plugin, type PluginApi } from '../../../core/index.js';

export const GATEWAY_PLUGINS_PATH = '/v1/gateway/plugins';

export default class GatewayInfoPlugin implements Plugin {
  static readonly manifest = { id: 'admin.gateway-info', description: `hooks, taps, registries and plugins of this gateway (${GATEWAY_PLUGINS_PATH})` };

  apply(api: PluginApi): void {
    const describe = api.services.get(Services.Description);
    api.registries.routes.add({
      method: 'GET',
      path: GATEWAY_PLUGINS_PATH,
      body: 'none',
      handler: async (ctx) => {
        if (!isOrganisationAdmin(principalOf(ctx))) throw Errors.forbidden('only organisation owners and admins see the gateway\'s plugins');
        return noStoreJson(200, describe());
      },
    });
  }
}
