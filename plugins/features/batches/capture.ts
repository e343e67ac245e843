/**
 * What a managed batch remembers of the request that created it: the headers that make its route
 * config (x-gw-config, x-gw-provider, Authorization, x-gw-custom-host, any other x-gw-<field>,
 * x-gw-metadata, cache headers) and the headers its config forwards; never the gateway key or the
 * creator's trace ids. Sealed with the secret box, since it may hold provider keys.
 */
import type { ConfigNode, HeaderMap, ProviderApi } from '../../../core/index.js';

/** What is sealed into a batch record. */
export interface SealedRequest {
  /** Headers every line of a managed batch is sent with. */
  headers: Record<string, string>;
  /** Provider batches (and managed batches whose input file lives at the provider): where and how to call it. */
  api?: ProviderApi;
}

const NOT_KEPT = new Set(['x-gw-api-key', 'x-gw-trace-id', 'x-gw-span-id', 'x-gw-parent-span-id', 'x-gw-span-name']);

export function captureHeaders(headers: HeaderMap, config: ConfigNode): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (name === 'authorization' || (name.startsWith('x-gw-') && !NOT_KEPT.has(name))) kept[name] = value;
  }
  for (const name of forwardedHeaders(config)) {
    const value = headers[name];
    if (value !== undefined && !NOT_KEPT.has(name)) kept[name] = value;
  }
  kept['content-type'] = 'application/json';
  return kept;
}

/** Every `forward_headers` name anywhere in the target tree, lower-cased. */
function forwardedHeaders(node: ConfigNode, into = new Set<string>()): Set<string> {
  for (const name of node.forward_headers ?? []) into.add(name.toLowerCase());
  for (const child of node.targets ?? []) forwardedHeaders(child, into);
  return into;
}
