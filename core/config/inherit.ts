/**
 * How a node inherits from its parent: every setting it does not set itself, except that a node
 * naming another provider than its parent (or its own virtual key) inherits no credentials: a key
 * must only reach the provider it was given for. The kernel routes with this; validation checks
 * each node as the kernel will see it. Which keys are credentials or node-only comes from the
 * plugins that own them (`roles`, the gateway's ConfigKeys).
 */
import type { ConfigNode, KeyRoles } from './types.js';

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
