/**
 * The OpenAI family's contract for calling an OpenAI-format API with a target's credentials: the
 * openai adapter, and the files, fine-tuning and responses plugins that call such an API directly.
 * The account fields (`vendorD_organization`, `vendorD_project`) are this provider's config keys.
 */
import type { ConfigNode } from '../../core/index.js';

/** Adds the node's key and OpenAI account headers (organisation, project) to `headers`. */
export function withOpenAICredentials(node: ConfigNode, headers: Record<string, string>): Record<string, string> {
  if (typeof node.api_key === 'string') headers['authorization'] = `Bearer ${node.api_key}`;
  if (typeof node['vendorD_organization'] === 'string') headers['openai-organization'] = node['vendorD_organization'];
  if (typeof node['vendorD_project'] === 'string') headers['openai-project'] = node['vendorD_project'];
  return headers;
}
