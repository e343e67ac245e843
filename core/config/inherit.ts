/**
 * How a node inherits from its parent: every setting it does not set itself, except that a node
 * naming another provider than its parent (or its own virtual key) inherits no credentials: a key
 * must only reach the provider it was given for. The kernel routes with this; validation checks
 * each node as the kernel will see it. Which keys are credentials or node-only comes from the
 * plugins that own them (`roles`, the gateway's ConfigKeys).
 */
import type { ConfigNode, KeyRoles } from './types.js';
import type { Target } from '../types.js';

export function inherit(parent: ConfigNode | undefined, node: ConfigNode, roles: KeyRoles): ConfigNode {
  if (!parent) return { ...node };
  const ownsCredentials = (node.provider !== undefined && parent.provider !== undefined && node.provider !== parent.provider)
    || node.virtual_key !== undefined;
  const merged: ConfigNode = {};
  for (const key in parent) {
    if (ownsCredentials && roles.isCredential(key)) continue;
    merged[key] = parent[key];
  }
  for (const key in node) merged[key] = node[key];
  return merged;
}

/** What a node passes down to its children: its settings without its place in the tree. */
export function childSettings(settings: ConfigNode, roles: KeyRoles): ConfigNode {
  const out: ConfigNode = {};
  for (const key in settings) if (!roles.isNodeOnly(key)) out[key] = settings[key];
  return out;
}

/**
 * The config's first leaf (depth first, `targets[0]` at every level) with the settings it inherits,
 * exactly as the kernel would merge them for that leaf, and its `$path` as the kernel names it. What
 * a call that cannot try twice goes to (stateful fine-tuning ids, a streamed proxy body, a realtime
 * session): the config's primary, never load-balanced nor fallen back from.
 */
export function firstLeaf(config: ConfigNode, roles: KeyRoles): Target {
  let settings = inherit(undefined, config, roles);
  let node = config;
  let path = 'config';
  while (node.targets && node.targets.length > 0) {
    const child = node.targets[0]!;
    settings = inherit(childSettings(settings, roles), child, roles);
    node = child;
    path += '.targets[0]';
  }
  Object.defineProperty(settings, '$path', { value: path, enumerable: false });
  return settings as Target;
}
