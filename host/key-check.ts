/**
 * Fail safe on composition: a gateway that serves protected routes needs a plugin providing the
 * `auth` service (the key check), or an explicit `allowUnauthenticated`, so that leaving
 * auth.api-key out of a gateway file never opens it to everyone without a word.
 */
import { PluginLoadError, Services, type Logger, type PluginClass, type Runtime } from '../core/index.js';

/** The built-in plugin that provides the key check, named in the boot error. */
const KEY_CHECK_PLUGIN = 'auth.api-key';

export function checksKeys(runtime: Runtime): boolean {
  return runtime.plugins.some((plugin) => {
    const manifest = (plugin.instance.constructor as PluginClass).manifest;
    return manifest?.provides?.includes(Services.Auth) === true;
  });
}

/** Throws when protected routes would be served without a key check and that was not allowed; warns when allowed. */
export function requireKeyCheck(runtime: Runtime, allowUnauthenticated: boolean, logger: Logger): void {
  if (checksKeys(runtime)) return;
  const open = runtime.registries.routes.list().filter((route) => route.protected !== false);
  if (open.length === 0) return;
  const examples = open.slice(0, 3).map((route) => `${route.method.toUpperCase()} ${route.path}`).join(', ');
  if (allowUnauthenticated) {
    logger.warn({ routes: open.length }, `serving ${open.length} protected route(s) without a key check (allowUnauthenticated)`);
    return;
  }
  throw new PluginLoadError(
    `this gateway serves protected routes (${examples}${open.length > 3 ? ', ...' : ''}) without a key check: ` +
    `load ${KEY_CHECK_PLUGIN} (or another plugin that provides the "${Services.Auth.name}" service), ` +
    'or set "allowUnauthenticated": true in the gateway file to serve everyone without a key',
  );
}
