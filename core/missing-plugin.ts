/**
 * Errors that stem from a plugin the gateway was composed without. The kernel knows no plugin by
 * name: the host, which knows its built-ins, tells it which plugin fills each role (`MissingPluginHints`),
 * so that a composed gateway says what to load instead of blaming the request.
 */
import { Errors, type GatewayError } from './errors.js';
import type { HeaderMap } from './types.js';
import type { Registries } from './registries.js';

export interface MissingPluginHints {
  /** Headers that carry a route config, and the plugin that reads them. */
  readonly configHeaders?: { readonly headers: readonly string[]; readonly plugin: string };
  /** The plugin that taps `call` to send a target's request to its provider. */
  readonly providerCalls?: string;
  /** Route-config keys (`retry`, `strategy.conditions`) and the plugin that owns each. */
  readonly configKeys?: Readonly<Record<string, string>>;
  /** Registry entries (strategy modes, cache modes ...) and the plugin that registers each. */
  readonly registryEntries?: Readonly<Partial<Record<keyof Registries, Readonly<Record<string, string>>>>>;
}

/** No plugin produced a route config: a config header that was sent names the missing reader. */
export function noConfig(headers: HeaderMap, hints: MissingPluginHints): GatewayError {
  const reader = hints.configHeaders;
  const sent = reader?.headers.find((name) => headers[name] !== undefined);
  if (reader && sent) return Errors.pluginNotLoaded(`${sent} was sent but no plugin reads it: load ${reader.plugin}`);
  return Errors.invalidConfig('', 'no config: send x-gw-config, or x-gw-provider with Authorization');
}

/** A loaded provider that no `call` tap answered: the plugin that calls providers is missing. */
export function noProviderCall(provider: string, hints: MissingPluginHints): GatewayError {
  const load = hints.providerCalls ? `load ${hints.providerCalls}` : 'load a plugin that taps the call hook';
  return Errors.pluginNotLoaded(`provider ${provider} is loaded but nothing calls providers: ${load}`);
}
