/**
 * Addressing a provider from a config node: its base URL, and the credential headers of an
 * OpenAI-format API (the openai adapter, and the files, fine-tuning and responses plugins that
 * call such an API directly).
 */
import type { ConfigNode } from './config/types.js';

/** `custom_host` when set, else `fallback` (the provider's default, with its version segment); no trailing slash. */
export function baseUrlOf(node: ConfigNode, fallback: string): string {
  const base = typeof node.custom_host === 'string' ? node.custom_host : fallback;
  return base.endsWith('/') ? base.slice(0, -1) : base;
}

/** Adds the node's key and OpenAI account headers (organisation, project) to `headers`. */
export function withOpenAICredentials(node: ConfigNode, headers: Record<string, string>): Record<string, string> {
  if (typeof node.api_key === 'string') headers['authorization'] = `Bearer ${node.api_key}`;
  if (typeof node['vendorD_organization'] === 'string') headers['openai-organization'] = node['vendorD_organization'];
  if (typeof node['vendorD_project'] === 'string') headers['openai-project'] = node['vendorD_project'];
  return headers;
}
