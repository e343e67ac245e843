/**
 * The one target a proxied request goes to: the config itself when it has no targets, else its first
 * leaf (targets[0], recursively) with what it inherits. A proxied body is streamed once and never
 * buffered, so there is no second try (no fallback, retry or load balancing): the first target is
 * the config's primary, and its answer, whatever it is, is the client's.
 */
import { childSettings, inherit, type ConfigNode, type KeyRoles, type Target } from '../../../core/index.js';

export function firstTarget(config: ConfigNode, roles: KeyRoles): Target {
  let settings = inherit(undefined, config, roles);
  let node = config;
  let path = 'config';
  while (node.targets && node.targets.length > 0) {
    const child = node.targets[0]!;
    settings = inherit(childSettings(settings, roles), child, roles);
    node = child;
    path += '.targets[0]';
  }
  // Where it sits, as the kernel names a leaf (logs record it).
  Object.defineProperty(settings, '$path', { value: path, enumerable: false });
  return settings as Target;
}
