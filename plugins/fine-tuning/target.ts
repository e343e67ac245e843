/**
 * Which provider account a fine-tuning call goes to. Job and file ids belong to one provider
 * account, so a stateful call never load-balances or falls back: it goes to the config's first
 * leaf (depth first, `targets[0]` at every level) with the settings it inherits, exactly as the
 * kernel would merge them for that leaf.
 */
import { CREDENTIAL_KEY_PATTERN, NODE_ONLY_KEYS, type ConfigNode } from '../../core/index.js';

export function firstLeaf(config: ConfigNode): ConfigNode {
  let node = config;
  let settings: ConfigNode = { ...config };
  while (node.targets && node.targets.length > 0) {
    const parent = withoutNodeKeys(settings);
    node = node.targets[0]!;
    settings = inherit(parent, node);
  }
  return settings;
}

function withoutNodeKeys(settings: ConfigNode): ConfigNode {
  const out: ConfigNode = {};
  for (const key in settings) if (!NODE_ONLY_KEYS.has(key)) out[key] = settings[key];
  return out;
}

/** The kernel's rule: a child that names another provider (or its own virtual key) inherits no credentials. */
function inherit(parent: ConfigNode, node: ConfigNode): ConfigNode {
  const ownsCredentials = (node.provider !== undefined && parent.provider !== undefined && node.provider !== parent.provider)
    || node.virtual_key !== undefined;
  const merged: ConfigNode = {};
  for (const key in parent) {
    if (ownsCredentials && CREDENTIAL_KEY_PATTERN.test(key)) continue;
    merged[key] = parent[key];
  }
  for (const key in node) merged[key] = node[key];
  return merged;
}
