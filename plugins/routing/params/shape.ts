/**
 * Shapes one target's request body, in this order:
 *   1. override_params: each top-level key forced onto the body (a nested object replaces the
 *      client's whole value: no deep merge);
 *   2. default_params: each top-level key set only when the body has no such key (a key the
 *      client sent as null counts as sent);
 *   3. drop_params: dot paths removed last, so a drop also removes what 1 or 2 set.
 * Copy-on-write: the input body is never changed; the result is the input itself when nothing
 * applied. Values taken from the config are shared, not cloned: bodies are never written in place.
 */
import type { ConfigNode } from '../../../core/index.js';
import { dropPath, dropPlan } from './drop-paths.js';

type Body = Record<string, unknown>;

export function shapeBody(body: Body, target: ConfigNode): Body {
  let out = body;
  const override = target.override_params;
  if (override) {
    for (const key in override) {
      if (out === body) out = { ...body };
      setKey(out, key, override[key]);
    }
  }
  const defaults = target.default_params;
  if (defaults) {
    for (const key in defaults) {
      if (Object.hasOwn(out, key)) continue;
      if (out === body) out = { ...body };
      setKey(out, key, defaults[key]);
    }
  }
  const drops = target.drop_params;
  if (drops && drops.length > 0) {
    const owned = new Set<object>();
    if (out !== body) owned.add(out);
    for (const path of dropPlan(drops)) out = dropPath(out, path, owned);
  }
  return out;
}

/** A new own key; `__proto__` is defined, not assigned, so it stays data and never swaps the prototype. */
function setKey(target: Body, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
