/**
 * console.web: the web console at `/console/` (logs, analytics, administration, playground), a
 * single-page app built from ui/ by `npm run build` and served from memory. It is a client of the
 * same admin and log routes as any other: the pages need no route of their own, and what a person
 * sees follows their key's or session's rights.
 *   GET /console             → 308 to /console/
 *   GET /console/            the page
 *   GET /console/assets/:name the bundle (content-hashed names, cached for a year)
 *   GET /v1/console/me       the signed-in caller and their rights
 */
import { Errors, Type, type GatewayResponse, type Plugin, type PluginApi, type RequestContext, type Static } from '../../../core/index.js';
import { DEFAULT_BUNDLE_DIR, loadBundle, type ConsoleBundle, type ConsoleFile } from './bundle.js';
import { ASSET_CACHING, consoleHeaders, PAGE_CACHING } from './headers.js';
import { meRoute } from './me.js';

export const CONSOLE_PATH = '/console/';

const Options = Type.Object({
  /** Where the built console is (a folder with index.html and its assets); default: the one `npm run build` makes. */
  bundleDir: Type.Optional(Type.String({ minLength: 1 })),
}, { additionalProperties: false });

export default class ConsolePlugin implements Plugin<Static<typeof Options>> {
  static readonly manifest = { id: 'console.web', description: `the web console at ${CONSOLE_PATH}`, options: Options };

  apply(api: PluginApi<Static<typeof Options>>): void {
    const bundle = loadBundle(api.options.bundleDir ?? DEFAULT_BUNDLE_DIR);
    if (!bundle) api.logger.warn({ plugin: 'console.web' }, 'the console is not built (npm run build bundles it): /console answers 503');
    const routes = api.registries.routes;
    routes.add(meRoute);
    routes.add({
      method: 'GET', path: '/console', body: 'none', protected: false,
      handler: async () => ({ status: 308, headers: { location: CONSOLE_PATH, 'content-type': 'text/plain; charset=utf-8' }, raw: `see ${CONSOLE_PATH}` }),
    });
    routes.add({
      method: 'GET', path: CONSOLE_PATH, body: 'none', protected: false,
      handler: async (ctx) => served(ctx, built(bundle).index, PAGE_CACHING),
    });
    routes.add({
      method: 'GET', path: `${CONSOLE_PATH}assets/:name`, body: 'none', protected: false,
      handler: async (ctx) => {
        const name = ctx.params['name']!;
        const file = built(bundle).assets.get(name);
        if (!file) throw Errors.notFound(`console asset ${JSON.stringify(name.slice(0, 80))}`);
        return served(ctx, file, ASSET_CACHING);
      },
    });
  }
}

function built(bundle: ConsoleBundle | undefined): ConsoleBundle {
  if (!bundle) throw Errors.unavailable('the console is not built: run npm run build');
  return bundle;
}

/** The file, gzipped when the browser takes it, or a 304 when it already has this version. */
function served(ctx: RequestContext, file: ConsoleFile, caching: string): GatewayResponse {
  const headers = consoleHeaders(file.type, caching);
  headers['etag'] = file.etag;
  if (ctx.request.headers['if-none-match'] === file.etag) return { status: 304, headers, raw: '' };
  const gzip = /\bgzip\b/.test(ctx.request.headers['accept-encoding'] ?? '');
  if (gzip) headers['content-encoding'] = 'gzip';
  return { status: 200, headers, raw: gzip ? file.gzipped : file.body };
}
