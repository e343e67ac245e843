/**
 * route.proxy: any `/v1/...` path no other route serves (a `/v1/*` fallback route, for the usual
 * methods) is forwarded to the request's provider: its base URL plus the same path and query, with
 * the target's credentials (the adapter's `proxyBase`), behind the gateway key, the body streamed
 * both ways, the provider's answer passed on as it is. One log row and the rate limits apply
 * (endpoint_type `proxy`). Without this plugin, such paths answer 404. See forward.ts for one
 * request, core's firstLeaf for which target, upstream-url.ts for the path rules.
 */
import {
  Services, Type, type EndpointDef, type Plugin, type PluginApi, type RouteDef, type Static,
} from '../../../core/index.js';
import { forward } from './forward.js';

const Options = Type.Object({
  /** Largest request body forwarded, bytes (413 above it). */
  maxBodyBytes: Type.Integer({ minimum: 1, default: 512 * 1024 * 1024 }),
}, { additionalProperties: false });

type Options = Static<typeof Options>;

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Proxied requests count as an endpoint of their own (limits' endpoint_type, logs, metrics); their
 * body is never read by the gateway, so there is nothing to validate.
 */
export const PROXY_ENDPOINT: EndpointDef = Object.freeze({
  id: 'proxy',
  validate: () => [],
  streamable: true,
});

export default class ProxyPlugin implements Plugin<Options> {
  static readonly manifest = {
    id: 'route.proxy',
    description: 'Any other /v1 path forwarded to the request\'s provider, bodies streamed both ways',
    options: Options,
  };

  apply(api: PluginApi<Options>): void {
    const deps = {
      kernel: api.services.get(Services.Kernel),
      transport: api.services.get(Services.Transport),
      providers: api.registries.providers,
      maxBodyBytes: api.options.maxBodyBytes,
    };
    for (const method of METHODS) {
      const route: RouteDef = {
        method,
        path: '/v1/*',
        body: 'stream',
        endpoint: PROXY_ENDPOINT,
        handler: (ctx) => forward(ctx, deps),
      };
      api.registries.routes.add(route);
    }
  }
}
