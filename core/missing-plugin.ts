/**
 * Errors that stem from a plugin the gateway was composed without, naming the built-in plugin
 * that fills the role, so that a composed gateway says what to load instead of blaming the request.
 */
import { Errors, type GatewayError } from './errors.js';
import type { HeaderMap } from './types.js';

/** The built-in plugin for each role the kernel depends on but does not fill itself. */
export const MISSING = Object.freeze({
  /** Reads x-gw-config and the x-gw-* header fields into the route config. */
  headerConfig: 'config.headers',
  /** Taps `call`: sends a target's request to its provider. */
  providerCalls: 'route.upstream',
});

const CONFIG_HEADERS = ['x-gw-config', 'x-gw-provider'] as const;

/** No plugin produced a route config: a config header that was sent names the missing reader. */
export function noConfig(headers: HeaderMap): GatewayError {
  const sent = CONFIG_HEADERS.find((name) => headers[name] !== undefined);
  if (sent) return Errors.pluginNotLoaded(`${sent} was sent but no plugin reads it: load ${MISSING.headerConfig}`);
  return Errors.invalidConfig('', 'no config: send x-gw-config, or x-gw-provider with Authorization');
}
