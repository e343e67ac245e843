/**
 * Which provider account a fine-tuning call goes to. Job and file ids belong to one provider
 * account, so a stateful call never load-balances or falls back: it goes to the config's first
 * leaf (depth first, `targets[0]` at every level) with the settings it inherits, exactly as the
 * kernel would merge them for that leaf.
 */
import { childSettings, inherit, type ConfigNode, type KeyRoles } from '../../../core/index.js';

export function firstLeaf(config: ConfigNode, roles: KeyRoles): ConfigNode {
  let node = config;
  let settings: ConfigNode = { ...config };
  while (node.targets && node.targets.length > 0) {
    const parent = childSettings(settings, roles);
    node = node.targets[0]!;
    settings = inherit(parent, node, roles);
  }
  return settings;
}
