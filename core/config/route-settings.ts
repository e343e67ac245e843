/**
 * The settings the kernel routes each config node with (inherit.ts), kept for frozen configs:
 * a config resolved again from the same headers routes over the very same, frozen target objects,
 * so inheritance is computed once and plugins can key their own per-target work (cache identity,
 * breaker identity) on the target object. Unfrozen configs get fresh objects every time.
 */
import { childSettings, inherit } from './inherit.js';
import type { ConfigNode, KeyRoles } from './types.js';

interface Kept {
  readonly parent: ConfigNode | undefined;
  readonly path: string;
  /** A leaf's target (with `$path`), or a branch node's settings. */
  readonly settings: ConfigNode;
  /** A branch node's settings as passed down to its children. */
  down?: ConfigNode;
}

export class RouteSettings {
  readonly #kept = new WeakMap<ConfigNode, Kept>();

  constructor(private readonly roles: KeyRoles) {}

  /** The node's settings; a leaf's carry its `$path`. */
  settings(parent: ConfigNode | undefined, node: ConfigNode, path: string, leaf: boolean): ConfigNode {
    const keep = Object.isFrozen(node) && (parent === undefined || Object.isFrozen(parent));
    if (keep) {
      const kept = this.#kept.get(node);
      if (kept && kept.parent === parent && kept.path === path) return kept.settings;
    }
    const settings = inherit(parent, node, this.roles);
    if (leaf) Object.defineProperty(settings, '$path', { value: path, enumerable: false });
    if (keep) this.#kept.set(node, { parent, path, settings: Object.freeze(settings) });
    return settings;
  }

  /** What a branch node passes down to its children (frozen when its settings are kept). */
  passedDown(node: ConfigNode, settings: ConfigNode): ConfigNode {
    const kept = this.#kept.get(node);
    if (kept?.settings !== settings) return childSettings(settings, this.roles);
    return (kept.down ??= Object.freeze(childSettings(settings, this.roles)));
  }
}
