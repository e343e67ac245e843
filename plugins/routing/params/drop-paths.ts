/**
 * `drop_params` paths: parsed once per list (cached by the list's identity, so a cached config is
 * parsed once, not per request) and applied copy-on-write: every object or array along a path
 * that changes is shallow-copied, so neither the client's body nor any object shared with another
 * target or with the config is ever mutated.
 */

/** One parsed path: its segments, and per segment the array index it names (-1: not an index). */
export interface DropPath {
  readonly keys: readonly string[];
  readonly indices: readonly number[];
}

const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** Why a path is unusable, or undefined when it is fine. */
export function dropPathRule(path: string): string | undefined {
  if (path === '' || path.startsWith('.') || path.endsWith('.') || path.includes('..')) {
    return 'must be a dot path without empty segments (e.g. "messages.0.name")';
  }
  if (path === 'stream') return 'cannot drop "stream": the gateway reads it to choose the answer format';
  return undefined;
}

const plans = new WeakMap<readonly string[], readonly DropPath[]>();

/** Whether a list was already checked and parsed (config validation runs on every request). */
export function hasPlan(list: readonly string[]): boolean {
  return plans.has(list);
}

/**
 * The paths of a list, ordered so that every path refers to the body before any drop: paths are
 * applied in descending order (indices compared as numbers), so removing `tools.3` never shifts
 * the element that `tools.1` names.
 */
export function dropPlan(list: readonly string[]): readonly DropPath[] {
  let plan = plans.get(list);
  if (!plan) {
    plan = list.map(parse).sort(descending);
    plans.set(list, plan);
  }
  return plan;
}

function parse(path: string): DropPath {
  const keys = path.split('.');
  return { keys, indices: keys.map((k) => (INDEX.test(k) ? Number(k) : -1)) };
}

function descending(a: DropPath, b: DropPath): number {
  const n = Math.min(a.keys.length, b.keys.length);
  for (let i = 0; i < n; i++) {
    const ia = a.indices[i]!;
    const ib = b.indices[i]!;
    if (ia >= 0 && ib >= 0) {
      if (ia !== ib) return ib - ia;
    } else if (ia >= 0 || ib >= 0) {
      // Indices after other keys, so the order stays total (keys beside indices only meet on objects).
      return ia >= 0 ? 1 : -1;
    } else if (a.keys[i] !== b.keys[i]) {
      return a.keys[i]! < b.keys[i]! ? 1 : -1;
    }
  }
  return b.keys.length - a.keys.length;
}

type Container = Record<string, unknown> | unknown[];

/**
 * Removes one path from `root` and returns the root to use from now on (`root` itself when the path
 * is absent). `owned` holds the containers this shaping already copied: they may be written in place.
 */
export function dropPath(root: Record<string, unknown>, path: DropPath, owned: Set<object>): Record<string, unknown> {
  const last = path.keys.length - 1;
  // Read-only walk first: a missing path copies nothing.
  let node: Container = root;
  for (let i = 0; i < last; i++) {
    const child = read(node, path, i);
    if (child === null || typeof child !== 'object') return root;
    node = child as Container;
  }
  if (!has(node, path, last)) return root;

  const top = own(root, owned) as Record<string, unknown>;
  node = top;
  for (let i = 0; i < last; i++) {
    const copy = own(read(node, path, i) as Container, owned);
    write(node, path, i, copy);
    node = copy;
  }
  if (Array.isArray(node)) node.splice(path.indices[last]!, 1);
  else delete node[path.keys[last]!];
  return top;
}

function read(node: Container, path: DropPath, i: number): unknown {
  if (Array.isArray(node)) {
    const index = path.indices[i]!;
    return index >= 0 && index < node.length ? node[index] : undefined;
  }
  // Own keys only: `__proto__` or `constructor` must never lead into a prototype.
  const key = path.keys[i]!;
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function has(node: Container, path: DropPath, i: number): boolean {
  if (Array.isArray(node)) {
    const index = path.indices[i]!;
    return index >= 0 && index < node.length;
  }
  return Object.hasOwn(node, path.keys[i]!);
}

/** Writes an existing slot: an own data property shadows the `__proto__` accessor, so plain assignment is safe. */
function write(node: Container, path: DropPath, i: number, value: unknown): void {
  if (Array.isArray(node)) node[path.indices[i]!] = value;
  else node[path.keys[i]!] = value;
}

function own(value: Container, owned: Set<object>): Container {
  if (owned.has(value)) return value;
  const copy: Container = Array.isArray(value) ? value.slice() : { ...value };
  owned.add(copy);
  return copy;
}
